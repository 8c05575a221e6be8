import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changesProcessState, filesChangingProcessState } from './process-state.mjs';

describe('changesProcessState', () => {
  it.each([
    "vi.mock('execa', async () => ({}));",
    "vi.doMock('./x');",
    "vi.stubEnv('CI', '1');",
    "vi.stubGlobal('fetch', fake);",
    'process.env.PIP_CONFIG_FILE = conf;',
    "process.env['A_B'] = '1';",
    'delete process.env.SHADOWBOX_TEST_SECRET;',
    'Object.assign(process.env, { A: "1" });',
    'const umask = process.umask(0o022);',
    "process.chdir('/tmp');",
  ])('finds %s', (source) => {
    expect(changesProcessState(source)).toBe(true);
  });

  it.each([
    'const env = { ...process.env, CARGO_HOME: home };',
    "if (process.env.CI === '1') skip();",
    'expect(process.env.HOME).toBeDefined();',
    "const spy = vi.fn(); vi.spyOn(console, 'log');",
  ])('leaves %s alone (reads, copies, spies)', (source) => {
    expect(changesProcessState(source)).toBe(false);
  });
});

describe('filesChangingProcessState', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('lists the matching files under a root, nested ones included, and no other kind of file', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-process-state-'));
    await mkdir(path.join(dir, 'server', 'a', 'b'), { recursive: true });
    await writeFile(
      path.join(dir, 'server', 'a', 'b', 'env.integration.test.ts'),
      'process.env.X = "1";',
    );
    await writeFile(path.join(dir, 'server', 'a', 'plain.integration.test.ts'), 'const x = 1;');
    await writeFile(path.join(dir, 'server', 'a', 'mocks.test.ts'), "vi.mock('execa');");
    expect(filesChangingProcessState('server', '.integration.test.ts', dir)).toEqual([
      path.join('server', 'a', 'b', 'env.integration.test.ts'),
    ]);
  });

  it('finds the files of this repository that are known to change process state', () => {
    const found = filesChangingProcessState('server', '.integration.test.ts');
    expect(found).toEqual(
      expect.arrayContaining([
        'server/tasks/python-index.integration.test.ts',
        'server/engine/setup/setup-cache.integration.test.ts',
      ]),
    );
  });
});
