import { describe, expect, it } from 'vitest';
import type { SetupTree } from './detect-rule';
import { detectSetup, tomlKeys } from './detect-setup';

/** An in-memory tree: path → content. */
function tree(files: Record<string, string>): SetupTree & { reads: string[] } {
  const reads: string[] = [];
  return {
    files: Object.keys(files),
    reads,
    read(path) {
      reads.push(path);
      return Promise.resolve(files[path] ?? null);
    },
  };
}

const npmCi = ['npm', 'ci', '--no-audit', '--no-fund'];
const venv = ['python3', '-m', 'venv', '--copies', '.venv'];
const cargoLock = (source: string) =>
  `version = 3\n\n[[package]]\nname = "serde"\nversion = "1.0.0"\n${source}\n`;

describe('detectSetup: node', () => {
  it('package-lock.json → npm ci, node_modules, package.json + lockfile as manifests', async () => {
    const plan = await detectSetup(tree({ 'package.json': '{}', 'package-lock.json': '{}' }));
    expect(plan.commands).toEqual([npmCi]);
    expect(plan.outputs).toEqual(['node_modules']);
    expect(plan.manifests).toEqual(['package.json', 'package-lock.json']);
    expect(plan.reasons).toEqual(['package-lock.json → npm ci --no-audit --no-fund']);
    expect(plan.env).toEqual({});
    expect(plan.workspaceEnv).toEqual({});
  });

  it('npm-shrinkwrap.json → npm ci, both npm lockfiles and .npmrc key the cache', async () => {
    const plan = await detectSetup(
      tree({
        'package.json': '{}',
        'npm-shrinkwrap.json': '{}',
        'package-lock.json': '{}',
        '.npmrc': 'x',
      }),
    );
    expect(plan.commands).toEqual([npmCi]);
    expect(plan.manifests).toEqual([
      'package.json',
      'npm-shrinkwrap.json',
      'package-lock.json',
      '.npmrc',
    ]);
  });

  it('pnpm-lock.yaml → pnpm install --frozen-lockfile', async () => {
    const plan = await detectSetup(
      tree({ 'package.json': '{}', 'pnpm-lock.yaml': '', 'pnpm-workspace.yaml': '' }),
    );
    expect(plan.commands).toEqual([['pnpm', 'install', '--frozen-lockfile']]);
    expect(plan.manifests).toEqual(['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml']);
    expect(plan.outputs).toEqual(['node_modules']);
  });

  it('yarn.lock (classic) → yarn install --frozen-lockfile', async () => {
    const plan = await detectSetup(
      tree({ 'package.json': '{}', 'yarn.lock': '# yarn lockfile v1\n' }),
    );
    expect(plan.commands).toEqual([['yarn', 'install', '--frozen-lockfile']]);
    expect(plan.reasons).toEqual(['yarn.lock → yarn install --frozen-lockfile']);
  });

  it('yarn.lock + .yarnrc.yml (Berry) → yarn install --immutable', async () => {
    const plan = await detectSetup(
      tree({ 'package.json': '{}', 'yarn.lock': '', '.yarnrc.yml': 'nodeLinker: node-modules\n' }),
    );
    expect(plan.commands).toEqual([['yarn', 'install', '--immutable']]);
    expect(plan.manifests).toEqual(['package.json', 'yarn.lock', '.yarnrc.yml']);
    expect(plan.reasons[0]).toMatch(/Yarn Berry/);
  });

  it('a Berry lockfile without .yarnrc.yml is still Berry', async () => {
    const plan = await detectSetup(
      tree({ 'package.json': '{}', 'yarn.lock': '__metadata:\n  version: 8\n' }),
    );
    expect(plan.commands).toEqual([['yarn', 'install', '--immutable']]);
  });

  it('several lockfiles: one install, picked by packageManager, else npm first', async () => {
    const both = { 'package-lock.json': '{}', 'yarn.lock': '' };
    const declared = await detectSetup(
      tree({ 'package.json': '{"packageManager":"yarn@1.22.22"}', ...both }),
    );
    expect(declared.commands).toEqual([['yarn', 'install', '--frozen-lockfile']]);
    expect(declared.reasons[0]).toMatch(/package-lock\.json not used/);
    const undeclared = await detectSetup(tree({ 'package.json': '{}', ...both }));
    expect(undeclared.commands).toEqual([npmCi]);
    expect(undeclared.reasons[0]).toMatch(/yarn\.lock not used/);
  });

  it('package.json without a lockfile installs nothing, and says why', async () => {
    const plan = await detectSetup(tree({ 'package.json': '{}' }));
    expect(plan.commands).toEqual([]);
    expect(plan.reasons[0]).toMatch(/without a lockfile/);
  });

  it('reads only the root: a lockfile in a subproject is not set up', async () => {
    const plan = await detectSetup(
      tree({ 'packages/a/package.json': '{}', 'packages/a/package-lock.json': '{}' }),
    );
    expect(plan.commands).toEqual([]);
    expect(plan.reasons).toEqual([expect.stringMatching(/→ no setup$/)]);
  });
});

describe('detectSetup: python', () => {
  it('requirements.txt → venv, then pip install -r', async () => {
    const plan = await detectSetup(tree({ 'requirements.txt': 'pytest\n' }));
    expect(plan.commands).toEqual([venv, ['.venv/bin/pip', 'install', '-r', 'requirements.txt']]);
    expect(plan.outputs).toEqual(['.venv']);
    expect(plan.manifests).toEqual(['requirements.txt']);
  });

  it('requirements.txt first, then the test ones; docs and dev ones are not installed', async () => {
    const plan = await detectSetup(
      tree({
        'requirements-test.txt': '',
        'requirements-docs.txt': '',
        'requirements_dev.txt': '',
        'requirements.txt': '',
        'requirements-tests.txt': '',
        'test-requirements.txt': '',
      }),
    );
    expect(plan.commands[1]).toEqual([
      '.venv/bin/pip',
      'install',
      ...['-r', 'requirements.txt', '-r', 'requirements-test.txt'],
      ...['-r', 'requirements-tests.txt', '-r', 'test-requirements.txt'],
    ]);
    expect(plan.reasons[0]).toMatch(
      /\(requirements-docs\.txt, requirements_dev\.txt not installed\)$/,
    );
  });

  it('files that requirements include (-r, -c) key the cache too', async () => {
    const plan = await detectSetup(
      tree({
        'requirements.txt': '-r reqs/base.txt\n',
        'reqs/base.txt': '--constraint=constraints.txt\nrequests\n',
        'reqs/constraints.txt': 'requests==2.0\n',
        'requirements-test.txt': '-r requirements.txt\n-r ../outside.txt\n',
      }),
    );
    expect(plan.manifests).toEqual([
      'requirements.txt',
      'requirements-test.txt',
      'reqs/base.txt',
      'reqs/constraints.txt',
    ]);
  });

  it('pyproject.toml with [project] → venv and pip install -e .', async () => {
    const plan = await detectSetup(
      tree({ 'pyproject.toml': '[project]\nname = "demo"\nversion = "0.1"\n' }),
    );
    expect(plan.commands).toEqual([venv, ['.venv/bin/pip', 'install', '-e', '.']]);
    expect(plan.manifests).toEqual(['pyproject.toml']);
  });

  it('pyproject.toml with only [build-system] is installable too', async () => {
    const plan = await detectSetup(
      tree({ 'pyproject.toml': '[build-system]\nrequires = ["setuptools"]\n', 'setup.py': '' }),
    );
    expect(plan.commands).toEqual([venv, ['.venv/bin/pip', 'install', '-e', '.']]);
    expect(plan.manifests).toEqual(['pyproject.toml', 'setup.py']);
  });

  it('installs the test extras a pyproject declares (not docs or dev), in every TOML spelling', async () => {
    const table = `[project]\nname = "d"\n\n[project.optional-dependencies]\ntest = [\n  "pytest>=7",\n  "x[y]==1",\n]\ndocs = ["sphinx"]\ndev = ["ruff"]\n`;
    const inline = `[project]\nname = "d"\noptional-dependencies = { tests = ["pytest==8"], lint = [] }\n`;
    const dotted = `[project]\nname = "d"\noptional-dependencies.Testing = ["pytest"]\n`;
    const argvOf = async (text: string) =>
      (await detectSetup(tree({ 'pyproject.toml': text }))).commands.at(-1);
    expect(await argvOf(table)).toEqual(['.venv/bin/pip', 'install', '-e', '.[test]']);
    expect(await argvOf(inline)).toEqual(['.venv/bin/pip', 'install', '-e', '.[tests]']);
    expect(await argvOf(dotted)).toEqual(['.venv/bin/pip', 'install', '-e', '.[Testing]']);
  });

  it('pyproject.toml + requirements + setup.cfg: requirements, then the project', async () => {
    const plan = await detectSetup(
      tree({
        'pyproject.toml': '[build-system]\n',
        'requirements-test.txt': '',
        'setup.cfg': '',
        '.python-version': '3.11\n',
      }),
    );
    expect(plan.commands).toEqual([
      venv,
      ['.venv/bin/pip', 'install', '-r', 'requirements-test.txt'],
      ['.venv/bin/pip', 'install', '-e', '.'],
    ]);
    expect(plan.manifests).toEqual([
      'pyproject.toml',
      'requirements-test.txt',
      'setup.cfg',
      '.python-version',
    ]);
  });

  it('a pyproject.toml that only configures tools installs nothing, and says so', async () => {
    const plan = await detectSetup(tree({ 'pyproject.toml': '[tool.pytest.ini_options]\n' }));
    expect(plan.commands).toEqual([]);
    expect(plan.outputs).toEqual([]);
    expect(plan.reasons[0]).toMatch(/nothing to install/);
  });

  it('a [project] header inside a string or comment is not one', async () => {
    const plan = await detectSetup(
      tree({ 'pyproject.toml': '# [project]\n[tool.x]\nnote = "[project]"\n' }),
    );
    expect(plan.commands).toEqual([]);
  });
});

describe('detectSetup: rust, go, cmake', () => {
  it('Cargo.lock with registry packages → cargo fetch --locked, target', async () => {
    const plan = await detectSetup(
      tree({
        'Cargo.toml': '[package]\n',
        'Cargo.lock': cargoLock('source = "registry+https://github.com/rust-lang/crates.io-index"'),
        'rust-toolchain.toml': '',
      }),
    );
    expect(plan.commands).toEqual([['cargo', 'fetch', '--locked']]);
    expect(plan.outputs).toEqual(['target']);
    expect(plan.manifests).toEqual(['Cargo.toml', 'Cargo.lock', 'rust-toolchain.toml']);
    expect(plan.env).toEqual({});
  });

  it('a Cargo.lock with only path packages, or none, fetches nothing', async () => {
    const pathOnly = await detectSetup(
      tree({ 'Cargo.toml': '', 'Cargo.lock': cargoLock('dependencies = []') }),
    );
    expect(pathOnly.commands).toEqual([]);
    expect(pathOnly.outputs).toEqual(['target']);
    expect(pathOnly.reasons[0]).toMatch(/no registry packages/);
    expect((await detectSetup(tree({ 'Cargo.toml': '' }))).commands).toEqual([]);
  });

  it('go.sum → go mod download, caches in the worktree under .shadowbox', async () => {
    const plan = await detectSetup(tree({ 'go.mod': 'module x\n', 'go.sum': '' }));
    expect(plan.commands).toEqual([['go', 'mod', 'download']]);
    expect(plan.manifests).toEqual(['go.mod', 'go.sum']);
    expect(plan.env).toEqual({ GOFLAGS: '-modcacherw' });
    expect(plan.workspaceEnv).toEqual({
      GOMODCACHE: '.shadowbox/go/mod',
      GOCACHE: '.shadowbox/go/build',
    });
    expect(plan.outputs).toEqual(['.shadowbox/go']);
  });

  it('go.mod without go.sum downloads nothing', async () => {
    const plan = await detectSetup(tree({ 'go.mod': 'module x\n' }));
    expect(plan.commands).toEqual([]);
    expect(plan.reasons[0]).toMatch(/without go\.sum/);
  });

  it('CMakeLists.txt at the root → configure and build into build/; every CMake file keys', async () => {
    const plan = await detectSetup(
      tree({
        'CMakeLists.txt': '',
        'src/CMakeLists.txt': '',
        'cmake/Find.cmake': '',
        'src/main.c': '',
      }),
    );
    expect(plan.commands).toEqual([
      ['cmake', '-S', '.', '-B', 'build'],
      ['cmake', '--build', 'build'],
    ]);
    expect(plan.outputs).toEqual(['build']);
    expect(plan.manifests).toEqual(['CMakeLists.txt', 'cmake/Find.cmake', 'src/CMakeLists.txt']);
  });

  it('a CMakeLists.txt only in a subdirectory is not set up', async () => {
    expect((await detectSetup(tree({ 'lib/CMakeLists.txt': '' }))).commands).toEqual([]);
  });
});

describe('detectSetup: combinations and the empty tree', () => {
  it('sets up every ecosystem, in the order node, python, rust, go, cmake', async () => {
    const plan = await detectSetup(
      tree({
        'CMakeLists.txt': '',
        'go.mod': '',
        'go.sum': '',
        'Cargo.toml': '',
        'Cargo.lock': cargoLock('source = "registry+https://example.invalid/index"'),
        'requirements.txt': '',
        'package.json': '{}',
        'package-lock.json': '{}',
      }),
    );
    expect(plan.commands.map((argv) => argv.slice(0, 2).join(' '))).toEqual([
      'npm ci',
      'python3 -m',
      '.venv/bin/pip install',
      'cargo fetch',
      'go mod',
      'cmake -S',
      'cmake --build',
    ]);
    expect(plan.outputs).toEqual(['node_modules', '.venv', 'target', '.shadowbox/go', 'build']);
    expect(plan.reasons).toHaveLength(5);
    expect(plan.env).toEqual({ GOFLAGS: '-modcacherw' });
  });

  it('node and python together', async () => {
    const plan = await detectSetup(
      tree({ 'package.json': '{}', 'pnpm-lock.yaml': '', 'pyproject.toml': '[project]\n' }),
    );
    expect(plan.commands).toEqual([
      ['pnpm', 'install', '--frozen-lockfile'],
      venv,
      ['.venv/bin/pip', 'install', '-e', '.'],
    ]);
    expect(plan.manifests).toEqual(['package.json', 'pnpm-lock.yaml', 'pyproject.toml']);
  });

  it('an empty tree needs no setup', async () => {
    const plan = await detectSetup(tree({ 'README.md': '' }));
    expect(plan).toEqual({
      commands: [],
      outputs: [],
      manifests: [],
      env: {},
      workspaceEnv: {},
      reasons: [expect.stringMatching(/^no lockfile or manifest at the root .* → no setup$/)],
      build: null,
    });
  });

  it('reads only the files its rules name', async () => {
    const files = tree({ 'package.json': '{}', 'package-lock.json': '{}', 'src/a.js': '' });
    await detectSetup(files);
    expect([...new Set(files.reads)].sort()).toEqual(['package.json', 'pyproject.toml']);
  });
});

describe('tomlKeys', () => {
  it('reads tables and keys, skipping arrays of tables, strings and comments', () => {
    const keys = tomlKeys(
      `a = 1 # [x]\n[[tool.list]]\nb = 2\n[ "project" ]\nname = "n = 1"\narr = [\n  "c = 3",\n]\n`,
    );
    expect([...keys.keys()]).toEqual(['', 'project']);
    expect([...(keys.get('project') ?? [])]).toEqual(['name', 'arr']);
    expect([...(keys.get('') ?? [])]).toEqual(['a']);
  });
});
