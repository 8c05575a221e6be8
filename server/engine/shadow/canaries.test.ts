import { mkdtemp, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runnerFromCommand } from '../parsers';
import { planCanaries, type CanaryPlacement } from './canaries';
import type { PreparedChange } from './hypothesis';
import { writeProject } from '../../test-support/inline-projects';

const plan = async (
  files: Record<string, string>,
  command: string[],
  options: { cwd?: string; changes?: PreparedChange[] } = {},
): Promise<CanaryPlacement> =>
  planCanaries({
    workspace: await writeProject('sbx-canary-plan-', files),
    cwd: options.cwd ?? '.',
    command,
    runner: runnerFromCommand(command),
    changes: options.changes ?? [],
  });

const placed = (placement: CanaryPlacement) => {
  if (!placement.placed) throw new Error(`not placed: ${placement.reason}`);
  return placement.plan;
};

const paths = (placement: CanaryPlacement): string[] =>
  placed(placement).changes.map((c) => c.path);

const hex = '[0-9a-f]{12}';

describe('planCanaries: pytest', () => {
  const test = { 'test_a.py': 'def test_a():\n    pass\n' };

  it('puts a new test file in the rootdir, one test that passes and one that fails', async () => {
    const p = placed(await plan(test, ['python3', '-m', 'pytest', '-q']));
    expect(p.changes).toHaveLength(1);
    expect(p.changes[0]?.path).toMatch(new RegExp(`^test_${hex}\\.py$`));
    expect(p.changes[0]?.before).toEqual({ exists: false });
    const content = p.changes[0]?.after?.toString() ?? '';
    expect(content).toContain(`def ${p.passing}():\n    assert 1 + 1 == 2`);
    expect(content).toContain(`def ${p.failing}():\n    assert 1 + 1 == 3`);
    expect(p.passing).toMatch(new RegExp(`^test_${hex}$`));
    expect(p.failureExitCode).toBe(1);
    expect(p.command).toEqual(['python3', '-m', 'pytest', '-q']);
  });

  it('follows testpaths from pyproject.toml, and a directory named on the command line', async () => {
    const config = { 'pyproject.toml': '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n' };
    const files = { ...config, 'tests/test_a.py': test['test_a.py'], 'more/x.txt': '' };
    expect(paths(await plan(files, ['pytest']))[0]).toMatch(/^tests\/test_/);
    expect(paths(await plan(files, ['pytest', 'more']))[0]).toMatch(/^more\/test_/);
  });

  it('has none when the command names a test file, selects by -k or stops at the first failure', async () => {
    expect(await plan(test, ['pytest', 'test_a.py'])).toEqual({
      placed: false,
      reason: 'the command names test files (test_a.py), so canaries could not be collected',
    });
    expect(await plan(test, ['pytest', 'test_a.py::test_a'])).toMatchObject({ placed: false });
    expect(await plan(test, ['pytest', '-k', 'a'])).toEqual({
      placed: false,
      reason:
        'the command selects tests or stops at the first failure (-k), so canaries could not be collected',
    });
    const addopts = { ...test, 'pytest.ini': '[pytest]\naddopts = -x -q\n' };
    expect(await plan(addopts, ['pytest'])).toMatchObject({ placed: false });
    const pattern = { ...test, 'setup.cfg': '[tool:pytest]\npython_files = check_*.py\n' };
    expect(await plan(pattern, ['pytest'])).toEqual({
      placed: false,
      reason: 'python_files (check_*.py) would not collect a canary file',
    });
  });
});

describe('planCanaries: other runners', () => {
  it('unittest: a TestCase in the discovery start directory', async () => {
    const files = { 'tests/test_a.py': '' };
    const p = placed(await plan(files, ['python3', '-m', 'unittest', 'discover', '-s', 'tests']));
    expect(p.changes[0]?.path).toMatch(new RegExp(`^tests/test_${hex}\\.py$`));
    expect(p.changes[0]?.after?.toString()).toContain(
      `    def ${p.failing}(self):\n        self.assertEqual(1 + 1, 3)`,
    );
    expect(await plan(files, ['python3', '-m', 'unittest', 'tests.test_a'])).toMatchObject({
      placed: false,
    });
  });

  it("node --test: appended to one of the suite's own files, as ESM where the package is", async () => {
    const cjs = { 'test/a.test.js': "require('node:test')('a', () => {});\n", 'lib.js': '' };
    const p = placed(await plan(cjs, ['node', '--test']));
    expect(p.changes.map((c) => c.path)).toEqual(['test/a.test.js']);
    const text = p.changes[0]?.after?.toString() ?? '';
    expect(text.startsWith(cjs['test/a.test.js'])).toBe(true);
    expect(text).toContain(`t.test('${p.failing}', () => { a().strictEqual(1 + 1, 3); });`);
    expect(p.changes[0]?.before).toMatchObject({ exists: true });
    const esm = {
      'package.json': '{"type": "module"}',
      'a.test.js': "import test from 'node:test';\n",
    };
    const m = placed(await plan(esm, ['node', '--test']));
    expect(m.changes[0]?.after?.toString()).toContain('createRequire(import.meta.url)');
    expect(await plan(cjs, ['node', '--test', '--test-name-pattern=a'])).toMatchObject({
      placed: false,
    });
  });

  it("node --test: a hypothesis's own version of the file gets the canaries", async () => {
    const change: PreparedChange = {
      path: 'test/a.test.js',
      before: { exists: true, content: Buffer.from('old\n'), mode: 0o644 },
      after: Buffer.from('// new\n'),
    };
    const p = placed(
      await plan({ 'test/a.test.js': 'old\n' }, ['node', '--test'], { changes: [change] }),
    );
    expect(p.changes[0]?.after?.toString()).toMatch(/^\/\/ new\n/);
  });

  it('cargo: a cfg(test) module at the end of the crate root, and --no-fail-fast', async () => {
    const files = { 'Cargo.toml': '[package]\nname = "c"\n', 'src/lib.rs': 'pub fn f() {}\n' };
    const p = placed(await plan(files, ['cargo', 'test', '--offline']));
    expect(p.command).toEqual(['cargo', 'test', '--no-fail-fast', '--offline']);
    expect(p.failureExitCode).toBe(101);
    const text = p.changes[0]?.after?.toString() ?? '';
    expect(p.changes[0]?.path).toBe('src/lib.rs');
    expect(text).toMatch(
      new RegExp(
        `^pub fn f\\(\\) \\{\\}\\n\\n#\\[cfg\\(test\\)\\]\\n#\\[allow\\(clippy::all, unused\\)\\]\\nmod canary_${hex} \\{`,
      ),
    );
    expect(text).toContain(
      `fn ${p.failing}() {\n        assert_eq!(1 + 1, std::hint::black_box(3));`,
    );
    expect(placed(await plan(files, ['cargo', 'test', '--no-fail-fast'])).command).toEqual([
      'cargo',
      'test',
      '--no-fail-fast',
    ]);
    expect(await plan(files, ['cargo', 'test', 'adds'])).toMatchObject({ placed: false });
    expect(await plan(files, ['cargo', 'test', '--', '--exact', 'x'])).toMatchObject({
      placed: false,
    });
    const virtual = { 'Cargo.toml': '[workspace]\nmembers = ["a"]\n' };
    expect(await plan(virtual, ['cargo', 'test'])).toMatchObject({ placed: false });
  });

  it('cargo: an integration test of their own when the library builds no unit tests ([lib] test = false)', async () => {
    const manifest = '[package]\nname = "c"\n\n[lib]\ntest = false\ndoctest = false\n';
    const files = { 'Cargo.toml': manifest, 'src/lib.rs': 'pub fn f() {}\n' };
    const p = placed(await plan(files, ['cargo', 'test', '--offline']));
    expect(p.changes.map((c) => c.path)).toEqual([
      expect.stringMatching(new RegExp(`^tests/canary_${hex}\\.rs$`)),
    ]);
    expect(p.changes[0]?.after?.toString()).toContain(
      `#[test]\nfn ${p.failing}() {\n    assert_eq!(1 + 1, std::hint::black_box(3));`,
    );
    expect(p.command).toEqual(['cargo', 'test', '--no-fail-fast', '--offline']);
    const noAutotests = {
      ...files,
      'Cargo.toml': manifest.replace('name = "c"\n', 'name = "c"\nautotests = false\n'),
    };
    expect(await plan(noAutotests, ['cargo', 'test'])).toMatchObject({ placed: false });
  });

  it('cargo: into a top-level module the hypothesis changed when it leaves the crate root alone', async () => {
    const files = {
      'Cargo.toml': '[package]\nname = "c"\n',
      'src/lib.rs': 'pub mod calc;\nmod other;\n',
      'src/calc.rs': 'pub fn f() {}\n',
      'src/other.rs': '',
      'src/loose.rs': '',
    };
    const change = (p: string, text: string): PreparedChange => ({
      path: p,
      before: { exists: true, content: Buffer.from(''), mode: 0o644 },
      after: Buffer.from(text),
    });
    const inModule = placed(
      await plan(files, ['cargo', 'test'], { changes: [change('src/calc.rs', 'pub fn g() {}\n')] }),
    );
    expect(paths({ placed: true, plan: inModule })).toEqual(['src/calc.rs']);
    expect(inModule.changes[0]?.after?.toString()).toMatch(
      /^pub fn g\(\) \{\}\n\n#\[cfg\(test\)\]/,
    );
    // A file the root does not declare may not be compiled at all: the root then.
    const loose = await plan(files, ['cargo', 'test'], { changes: [change('src/loose.rs', 'x')] });
    expect(paths(loose)).toEqual(['src/lib.rs']);
    const both = [change('src/calc.rs', ''), change('src/lib.rs', 'pub mod calc;\nmod other;\n')];
    expect(paths(await plan(files, ['cargo', 'test'], { changes: both }))).toEqual(['src/lib.rs']);
  });

  it('go: a _test.go file in the first package the command covers, in its package', async () => {
    const files = { 'go.mod': 'module x\n', 'pkg/calc/calc.go': 'package calc\n' };
    const p = placed(await plan(files, ['go', 'test', './...']));
    expect(p.changes[0]?.path).toMatch(new RegExp(`^pkg/calc/canary_${hex}_test\\.go$`));
    expect(p.changes[0]?.after?.toString()).toMatch(/^package calc\n/);
    expect(p.failing).toMatch(/^Test[0-9A-F]{12}$/);
    expect(await plan(files, ['go', 'test', '-run', 'X', './...'])).toMatchObject({
      placed: false,
    });
  });

  it('vitest and jest: appended to a file the reference run showed running', async () => {
    const files = { 'src/a.test.ts': "import { test } from 'vitest';\n", 'src/b.ts': '' };
    const known = ['src/a.test.ts > adds', 'src/gone.test.ts > x'];
    const workspace = await writeProject('sbx-canary-vitest-', files);
    const placement = await planCanaries({
      workspace,
      cwd: '.',
      command: ['npx', 'vitest', 'run'],
      runner: 'vitest',
      changes: [],
      knownTests: known,
    });
    const v = placed(placement);
    expect(v.changes.map((c) => c.path)).toEqual(['src/a.test.ts']);
    expect(v.changes[0]?.after?.toString()).toMatch(
      new RegExp(
        `^import \\{ test \\} from 'vitest';\\n\\n;import \\{ test as canary_${hex}_test, expect as canary_${hex}_expect \\} from 'vitest';`,
      ),
    );
    expect(await plan(files, ['npx', 'vitest', 'run'])).toEqual({
      placed: false,
      reason: 'no test file of the reference run to add the canaries to',
    });
    const jest = await planCanaries({
      workspace,
      cwd: '.',
      command: ['npx', 'jest'],
      runner: 'jest',
      changes: [],
      knownTests: ['src/a.test.ts › adds'],
    });
    expect(placed(jest).changes[0]?.after?.toString()).toContain(
      `test('${placed(jest).failing}', () => { expect(1 + 1).toBe(3); });`,
    );
  });

  it('mocha: a new spec in test/, unless a config or the command names the specs', async () => {
    const files = { 'test/a.js': "it('a', () => {});\n" };
    const m = placed(await plan(files, ['npx', 'mocha']));
    expect(m.changes[0]?.path).toMatch(new RegExp(`^test/canary-${hex}\\.cjs$`));
    expect(await plan({ ...files, '.mocharc.yml': 'spec: spec/**\n' }, ['npx', 'mocha'])).toEqual({
      placed: false,
      reason: '.mocharc.yml may name other specs, so canaries could not be placed',
    });
    expect(await plan(files, ['npx', 'mocha', 'test/a.js'])).toMatchObject({ placed: false });
    expect(await plan(files, ['npx', 'mocha', '--bail'])).toMatchObject({ placed: false });
  });

  it('says so for a runner it has no canaries for', async () => {
    expect(await plan({}, ['ctest'])).toEqual({
      placed: false,
      reason: 'no canaries for this runner (ctest): its results are not checked',
    });
  });
});

describe('planCanaries: the tree is read, never through a link', () => {
  it('a crate root that links to a host file is neither read nor staged', async () => {
    const secret = path.join(await mkdtemp(path.join(os.tmpdir(), 'sbx-secret-')), 'secret.rs');
    await writeFile(secret, 'host secret\n');
    const workspace = await writeProject('sbx-canary-link-', {
      'Cargo.toml': '[package]\nname = "c"\n',
    });
    await symlink(secret, path.join(workspace, 'src-lib.rs'));
    await writeFile(
      path.join(workspace, 'Cargo.toml'),
      '[package]\nname = "c"\n\n[lib]\npath = "src-lib.rs"\n',
    );
    const placement = await planCanaries({
      workspace,
      cwd: '.',
      command: ['cargo', 'test'],
      runner: 'cargo',
      changes: [],
    });
    expect(placement).toEqual({
      placed: false,
      reason: 'no crate root (src-lib.rs, src/main.rs) to add the canaries to',
    });
  });

  it('a directory that links out of the workspace is not a place for canaries', async () => {
    const outside = await mkdtemp(path.join(os.tmpdir(), 'sbx-out-'));
    const workspace = await writeProject('sbx-canary-dirlink-', { 'x.txt': '' });
    await symlink(outside, path.join(workspace, 'tests'));
    const placement = await planCanaries({
      workspace,
      cwd: '.',
      command: ['pytest', 'tests'],
      runner: 'pytest',
      changes: [],
    });
    expect(placement).toEqual({
      placed: false,
      reason: 'the command names test files (tests), so canaries could not be collected',
    });
  });
});
