import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultRunLimits } from './run-limits';
import { nextCheckMs, watchRun } from './run-watch';
import { treeUsage } from './tree-usage';

const mib = 1024 * 1024;
const caps = (bytes: number, inodes = 200_000) => ({ bytes, inodes });
const used = (bytes: number, inodes = 0) => ({ bytes, inodes });

describe('nextCheckMs (when the disk watcher measures the upper layer again)', () => {
  it('waits longer when the run is far below its cap', () => {
    const far = nextCheckMs(5, used(650 * mib), caps(4096 * mib));
    const near = nextCheckMs(5, used(4000 * mib), caps(4096 * mib));
    expect(far).toBeGreaterThan(1000);
    expect(near).toBe(200);
  });

  it('never measures more often than every 200 ms, nor less often than every 5 s', () => {
    expect(nextCheckMs(0, used(4096 * mib), caps(4096 * mib))).toBe(200);
    expect(nextCheckMs(0, used(0), caps(1024 * 1024 * mib, 1_000_000_000))).toBe(5000);
  });

  it('spaces slow walks out, whatever the room left', () => {
    expect(nextCheckMs(100, used(4000 * mib), caps(4096 * mib))).toBe(2000);
  });

  it('measures soon when the files, not the bytes, are about to run out', () => {
    expect(nextCheckMs(5, used(1 * mib, 195_000), caps(4096 * mib))).toBe(200);
  });
});

describe('the inode cap', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function emptyFiles(count: number): Promise<string> {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-inodes-'));
    const tree = path.join(dir, 'upper');
    await mkdir(tree);
    for (let i = 0; i < count; i += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, count - i) }, (_, j) =>
          writeFile(path.join(tree, `f${i + j}`), ''),
        ),
      );
    }
    return tree;
  }

  it('counts empty files, which cost no blocks, as inodes', async () => {
    const tree = await emptyFiles(3000);
    // The directory itself and its 3,000 files.
    const usage = await treeUsage([tree]);
    expect(usage.inodes).toBe(3001);
    expect(usage.bytes).toBeLessThan(1 * mib);
  });

  it('ends a run whose trees hold more files than its inode cap, naming the cap', async () => {
    const tree = await emptyFiles(5000);
    const hits: string[] = [];
    const watch = watchRun({
      limits: { ...defaultRunLimits, maxInodes: 2000 },
      cgroup: null,
      measured: [tree],
      onExceeded: (limit) => hits.push(limit),
    });
    await expect.poll(() => hits, { timeout: 20_000 }).toEqual(['inodes']);
    expect(await watch.stop()).toBe('inodes');
    // Writing 5,000 files and walking them took over 5 s on a loaded two-core CI machine.
  }, 30_000);

  it('lets a run below its inode cap go on', async () => {
    const tree = await emptyFiles(500);
    const hits: string[] = [];
    const watch = watchRun({
      limits: { ...defaultRunLimits, maxInodes: 2000 },
      cgroup: null,
      measured: [tree],
      onExceeded: (limit) => hits.push(limit),
    });
    expect(await watch.stop()).toBeNull();
    expect(hits).toEqual([]);
  });
});
