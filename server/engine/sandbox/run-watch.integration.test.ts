import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createShadowRunner, type ShadowRunner } from '../shadow';

/**
 * The inode cap, attacked from inside a hypothesis: empty files cost no blocks, so before this
 * cap 300,000 of them cost 4.7 MB of the disk cap and as many of the host's inodes.
 */

let workspace: string;
let runner: ShadowRunner;

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-inodes-'));
  workspace = path.join(dataDir, 'worktrees', 'task-1');
  await mkdir(workspace, { recursive: true });
  await writeFile(path.join(workspace, 'calc.py'), 'x = 1\n');
  runner = await createShadowRunner({ dataDir, mode: 'overlay' });
});

describe('the sandbox boundary: the inode cap', () => {
  it('kills a run that creates more files than its inode cap, naming the cap; never a pass', async () => {
    const report = await runner.run({
      workspace,
      command: [
        '/bin/sh',
        '-c',
        'mkdir many && cd many && python3 -c "' +
          "[open(f'f{i}', 'w').close() for i in range(5000)]" +
          '" && sleep 20; echo survived',
      ],
      hypotheses: [{ name: 'attack', edits: [], delete: [] }],
      timeoutMs: 30_000,
      limits: { maxInodes: 2000 },
    });
    const [result] = report.hypotheses;
    expect(result?.error).toBe('the run exceeded its inode cap of 2000 files and was killed');
    expect(result?.outputTail).not.toContain('survived');
    expect(report.winner).toBeNull();
    expect(await readdir(workspace)).toEqual(['calc.py']);
  });
});
