import { chmod, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyHypothesis } from './apply-hypothesis';
import { prepareHypotheses } from './prepare-hypotheses';
import { writeProject } from '../../test-support/inline-projects';

async function workspaceWithExecutable(): Promise<string> {
  const dir = await writeProject('sbx-apply-', {
    'src/lib.rs': 'old\n',
    'run.sh': '#!/bin/sh\n',
    'gone.txt': 'bye\n',
  });
  await chmod(path.join(dir, 'run.sh'), 0o755);
  return dir;
}

describe('applyHypothesis', () => {
  it('writes edits, new files in new directories and deletions, keeping modes', async () => {
    const dir = await workspaceWithExecutable();
    const {
      prepared: [h],
    } = await prepareHypotheses(dir, [
      {
        name: 'fix',
        edits: [
          { path: 'src/lib.rs', content: 'new\n' },
          { path: 'run.sh', content: '#!/bin/sh\necho\n' },
          { path: 'docs/deep/NOTES.md', content: 'notes\n' },
        ],
        delete: ['gone.txt'],
      },
    ]);
    await applyHypothesis(dir, h!);
    expect(await readFile(path.join(dir, 'src/lib.rs'), 'utf8')).toBe('new\n');
    expect(await readFile(path.join(dir, 'docs/deep/NOTES.md'), 'utf8')).toBe('notes\n');
    expect((await stat(path.join(dir, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect((await stat(path.join(dir, 'docs/deep/NOTES.md'))).mode & 0o777).toBe(0o644);
    expect((await readdir(dir)).sort()).toEqual(['docs', 'run.sh', 'src']);
    expect(await readdir(path.join(dir, 'src'))).toEqual(['lib.rs']);
  });

  it('refuses, writing nothing, when the workspace changed after the hypothesis was prepared', async () => {
    const dir = await workspaceWithExecutable();
    const {
      prepared: [h],
    } = await prepareHypotheses(dir, [
      {
        name: 'fix',
        edits: [
          { path: 'new.txt', content: 'x' },
          { path: 'src/lib.rs', content: 'new\n' },
        ],
        delete: [],
      },
    ]);
    await writeFile(path.join(dir, 'src/lib.rs'), 'edited meanwhile\n');
    await expect(applyHypothesis(dir, h!)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: "cannot apply 'fix': 'src/lib.rs' changed in the workspace during the run",
    });
    expect((await readdir(dir)).sort()).toEqual(['gone.txt', 'run.sh', 'src']);
    expect(await readFile(path.join(dir, 'src/lib.rs'), 'utf8')).toBe('edited meanwhile\n');
  });
});
