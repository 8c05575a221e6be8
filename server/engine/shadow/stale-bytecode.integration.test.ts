// A hypothesis is judged on its own code, not on what a cache kept of the file it replaces.
// Python takes a module's bytecode as current when the source's size and mtime (whole seconds)
// match the cached ones; an edit of the same size written within the second the original was
// compiled used to run the original's bytecode (seen as a fix that "fixed nothing", now and then).
import { mkdtemp, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { asWorkspace, writeProject } from '../../test-support/inline-projects';
import { createShadowRunner, type ShadowRunner } from './create-shadow-runner';
import { byName, hypothesis } from './test-support/judge';

let runner: ShadowRunner;

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-pyc-'));
  runner = await createShadowRunner({ dataDir, mode: 'overlay' });
});

describe('warm bytecode', () => {
  it('a same-size edit within the second its file was compiled runs the new code', async () => {
    const dir = await writeProject('sbx-pyc-ws-', {
      'calc.py': 'def sub(a, b):\n    return a + b\n',
      'test_calc.py': 'from calc import sub\n\n\ndef test_sub():\n    assert sub(5, 3) == 2\n',
    });
    // At the start of a fresh second: the file's mtime, its bytecode, then the run, all in it.
    await new Promise((resolve) => setTimeout(resolve, 1005 - (Date.now() % 1000)));
    const now = new Date();
    await utimes(path.join(dir, 'calc.py'), now, now);
    await execa('python3', ['-m', 'py_compile', 'calc.py'], { cwd: dir });
    await asWorkspace(dir);
    const report = await runner.run({
      workspace: dir,
      command: ['python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
      hypotheses: [hypothesis('fix', { 'calc.py': 'def sub(a, b):\n    return a - b\n' })],
    });
    expect(byName(report, 'fix')).toMatchObject({ passed: 1, failed: 0 });
    expect(report.winner).toBe('fix');
  });
});
