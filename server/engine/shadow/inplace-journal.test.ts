import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PreparedChange } from './hypothesis';
import { keepOriginal, planJournal, replaceFile, restoreJournal } from './inplace-journal';

let workspace: string;
let runDir: string;

beforeEach(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'sbx-journal-ws-'));
  runDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-journal-run-'));
  await writeFile(path.join(workspace, 'calc.py'), 'def add(a, b):\n    return a - b\n');
  await writeFile(path.join(workspace, 'test_calc.py'), 'def test_add(): ...\n');
});
afterEach(async () => {
  await Promise.all([workspace, runDir].map((d) => rm(d, { recursive: true, force: true })));
});

const change = (p: string, before: string | null, after: string | null): PreparedChange => ({
  path: p,
  before:
    before === null
      ? { exists: false }
      : { exists: true, content: Buffer.from(before), mode: 0o644 },
  after: after === null ? null : Buffer.from(after),
});

describe('restoreJournal after a crash (the sweep passes every change of the journal)', () => {
  it('puts back what was written and leaves alone what the crash came before', async () => {
    const original = await readFile(path.join(workspace, 'calc.py'), 'utf8');
    const journal = await planJournal(workspace, runDir, [
      change('calc.py', original, 'def add(a, b):\n    return a + b\n'),
      change('new/file.py', null, 'x = 1\n'),
      change('test_calc.py', 'def test_add(): ...\n', null),
    ]);
    // Killed after the first of three writes: the new file and the deletion never happened.
    const [first] = journal.changes;
    if (first === undefined) throw new Error('no change planned');
    await keepOriginal(workspace, first);
    await replaceFile(
      path.join(workspace, 'calc.py'),
      Buffer.from('def add(a, b):\n    return a + b\n'),
      0o644,
    );

    expect(await restoreJournal(journal)).toEqual([]);
    expect(await readFile(path.join(workspace, 'calc.py'), 'utf8')).toBe(original);
    expect((await readdir(workspace)).sort()).toEqual(['calc.py', 'test_calc.py']);
  });

  it('removes the temporary file of a write the crash cut short', async () => {
    const original = await readFile(path.join(workspace, 'calc.py'), 'utf8');
    const journal = await planJournal(workspace, runDir, [change('calc.py', original, 'new\n')]);
    await writeFile(path.join(workspace, '.calc.py.shadowbox-0a1b2c3d'), 'new\n');
    // A file of the project that merely looks alike stays.
    await writeFile(path.join(workspace, '.calc.py.shadowbox-notes'), 'mine\n');

    expect(await restoreJournal(journal)).toEqual([]);
    expect((await readdir(workspace)).sort()).toEqual([
      '.calc.py.shadowbox-notes',
      'calc.py',
      'test_calc.py',
    ]);
  });

  it('still refuses to overwrite a file the run changed after the hypothesis wrote it', async () => {
    const original = await readFile(path.join(workspace, 'calc.py'), 'utf8');
    const journal = await planJournal(workspace, runDir, [change('calc.py', original, 'fixed\n')]);
    await replaceFile(path.join(workspace, 'calc.py'), Buffer.from('fixed\ntampered\n'), 0o644);

    expect(await restoreJournal(journal)).toEqual(['calc.py']);
    expect(await readFile(path.join(workspace, 'calc.py'), 'utf8')).toBe('fixed\ntampered\n');
  });
});
