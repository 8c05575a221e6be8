import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prepareHypotheses } from './prepare-hypotheses';
import { stageIntoUpper } from './stage-files';
import { writeProject } from '../../test-support/inline-projects';

async function prepared(workspace: string, edits: Record<string, string>) {
  const { prepared, refused } = await prepareHypotheses(workspace, [
    {
      name: 'fix',
      edits: Object.entries(edits).map(([p, content]) => ({ path: p, content })),
      delete: [],
    },
  ]);
  expect(refused).toEqual([]);
  return prepared[0]!;
}

describe('stageIntoUpper', () => {
  it('writes new files and their parent directories into the upper layer', async () => {
    const workspace = await writeProject('sbx-stage-', { 'calc.py': 'old\n' });
    const upper = await mkdtemp(path.join(os.tmpdir(), 'sbx-upper-'));
    const h = await prepared(workspace, { 'calc.py': 'new\n', 'pkg/mod.py': 'x\n' });
    await stageIntoUpper(workspace, upper, h.changes);
    expect(await readFile(path.join(upper, 'calc.py'), 'utf8')).toBe('new\n');
    expect(await readFile(path.join(upper, 'pkg/mod.py'), 'utf8')).toBe('x\n');
  });

  it('refuses, staging nothing, when a parent became a file after preparation (calc.py/x)', async () => {
    const workspace = await writeProject('sbx-stage-', { 'calc.py': 'old\n' });
    const upper = await mkdtemp(path.join(os.tmpdir(), 'sbx-upper-'));
    const h = await prepared(workspace, { 'calc.py': 'new\n', 'pkg/x': 'x\n' });
    await writeFile(path.join(workspace, 'pkg'), 'now a file\n');
    await expect(stageIntoUpper(workspace, upper, h.changes)).rejects.toMatchObject({
      code: 'INVALID_HYPOTHESIS',
      message: "'pkg/x' cannot be written: its parent 'pkg' is a file",
    });
    expect(await readdir(upper)).toEqual([]);
  });

  it('refuses, staging nothing, when a target became a directory after preparation', async () => {
    const workspace = await writeProject('sbx-stage-', { 'calc.py': 'old\n' });
    const upper = await mkdtemp(path.join(os.tmpdir(), 'sbx-upper-'));
    const h = await prepared(workspace, { out: 'x\n' });
    await mkdir(path.join(workspace, 'out'));
    await expect(stageIntoUpper(workspace, upper, h.changes)).rejects.toThrow(
      "'out' cannot be written: it is a directory",
    );
    expect(await readdir(upper)).toEqual([]);
  });
});
