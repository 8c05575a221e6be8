import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BackgroundRemoval } from './scratch';

async function runDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'removal-'));
  await mkdir(path.join(dir, 'upper'));
  await writeFile(path.join(dir, 'upper', 'file'), 'x');
  return dir;
}

function deferred(): { promise: Promise<void>; resolve: () => void; reject: () => void } {
  let resolve = (): void => undefined;
  let reject = (): void => undefined;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = () => rej(new Error('the group could not be removed'));
  });
  return { promise, resolve, reject };
}

describe('BackgroundRemoval', () => {
  it("deletes a run's directory only once what it waits for (its control group) is gone", async () => {
    const removal = new BackgroundRemoval();
    const dir = await runDir();
    const group = deferred();
    removal.remove(dir, group.promise);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(existsSync(dir)).toBe(true);
    group.resolve();
    await removal.settled();
    expect(existsSync(dir)).toBe(false);
  });

  it('settled() waits for the deletion that starts after the group, not only for the group', async () => {
    const removal = new BackgroundRemoval();
    const dir = await runDir();
    removal.remove(dir, Promise.resolve());
    await removal.settled();
    expect(existsSync(dir)).toBe(false);
  });

  it('still deletes the directory when removing the group failed (the sweep finds the group)', async () => {
    const removal = new BackgroundRemoval();
    const dir = await runDir();
    const group = deferred();
    removal.remove(dir, group.promise);
    group.reject();
    await removal.settled();
    expect(existsSync(dir)).toBe(false);
  });
});
