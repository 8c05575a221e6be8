import { lstat, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writtenInLaterSecond } from './later-second';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-later-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writtenAt(name: string, seconds: number): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, 'x');
  await utimes(file, seconds, seconds);
  return file;
}

describe('writtenInLaterSecond', () => {
  it('moves a file written in the second of the one it replaces to the next second', async () => {
    const file = await writtenAt('same', 1_700_000_000.25);
    await writtenInLaterSecond(file, { mtimeMs: 1_700_000_000_900 });
    expect((await lstat(file)).mtimeMs).toBe(1_700_000_001_000);
  });

  it('moves one written in an earlier second (a clock step back) past the replaced one', async () => {
    const file = await writtenAt('earlier', 1_699_999_990);
    await writtenInLaterSecond(file, { mtimeMs: 1_700_000_000_500 });
    expect((await lstat(file)).mtimeMs).toBe(1_700_000_001_000);
  });

  it('leaves a file already in a later second, and a new file, as written', async () => {
    const later = await writtenAt('later', 1_700_000_002.5);
    await writtenInLaterSecond(later, { mtimeMs: 1_700_000_000_500 });
    expect((await lstat(later)).mtimeMs).toBe(1_700_000_002_500);
    const fresh = await writtenAt('fresh', 1_700_000_000.5);
    await writtenInLaterSecond(fresh, null);
    expect((await lstat(fresh)).mtimeMs).toBe(1_700_000_000_500);
  });
});
