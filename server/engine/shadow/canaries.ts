// Canary tests: two tests a hypothesis cannot know in advance (random names, new for every run),
// added to the run's overlay only, in the runner's own conventions. One must fail and one must
// pass: a run whose code forged its results (patched the runner's reporting, swallowed failures,
// shadowed the assertion macros, wrote its own report and exited 0) gets them wrong too.
// Where the command leaves no place a canary would be collected (it names test files, filters by
// name, stops at the first failure), the run has none and says why.
import { randomBytes, randomInt } from 'node:crypto';
import path from 'node:path';
import { resolveTool, type RunnerName } from '../parsers';
import type { PreparedChange } from './hypothesis';
import { runTree, type RunTree } from './canary-tree';

export interface CanaryPlan {
  /** The tests' names; every id the runner gives them contains the name. */
  readonly passing: string;
  readonly failing: string;
  /** What the run stages on top of the hypothesis (new files, or its files with a canary added). */
  readonly changes: readonly PreparedChange[];
  /** The command to run instead (cargo: `--no-fail-fast`, so the failing canary stops nothing). */
  readonly command: readonly string[];
  /** The runner's exit code when tests failed: an honest run exits with it, for the canary. */
  readonly failureExitCode: number;
}

export type CanaryPlacement =
  | { readonly placed: true; readonly plan: CanaryPlan }
  | { readonly placed: false; readonly reason: string };

interface Names {
  readonly file: string;
  readonly passing: string;
  readonly failing: string;
}

interface Placed {
  readonly path: string;
  readonly content: string;
  /** Appended to this existing file rather than a new file. */
  readonly append?: boolean;
}

type Placing =
  { files: Placed[]; passing: string; failing: string; command?: string[]; exit: number } | string;

const hex = (): string => randomBytes(6).toString('hex');

const skip = (reason: string): CanaryPlacement => ({ placed: false, reason });

/** Where the canaries of one run go, for `command` (already the runner's own argv). */
export async function planCanaries(options: {
  readonly workspace: string;
  readonly cwd: string;
  readonly command: readonly string[];
  readonly runner: RunnerName | 'auto';
  readonly changes: readonly PreparedChange[];
  /** Test ids of the run's reference: jest and vitest canaries go into a file known to run. */
  readonly knownTests?: readonly string[];
}): Promise<CanaryPlacement> {
  const tree = runTree(options.workspace, options.changes);
  const names: Names = { file: hex(), passing: hex(), failing: hex() };
  const { name, args } = resolveTool(options.command);
  const cwd = path.posix.normalize(options.cwd);
  let placing: Placing;
  switch (options.runner) {
    case 'pytest':
      placing = await pytestCanaries(tree, cwd, args, names);
      break;
    case 'unittest':
      placing =
        name === 'unittest' ? await unittestCanaries(tree, cwd, args, names) : 'unsupported';
      break;
    case 'node':
      placing = await nodeCanaries(tree, cwd, args, names);
      break;
    case 'cargo':
      placing = await cargoCanaries(tree, cwd, options.command, options.changes, names);
      break;
    case 'go':
      placing = await goCanaries(tree, cwd, args, names);
      break;
    case 'jest':
    case 'vitest':
      placing = await jsFileCanaries(options.runner, tree, cwd, options.knownTests ?? [], names);
      break;
    case 'mocha':
      placing = await mochaCanaries(tree, cwd, args, names);
      break;
    default:
      placing = 'unsupported';
  }
  if (placing === 'unsupported') {
    return skip(`no canaries for this runner (${options.runner}): its results are not checked`);
  }
  if (typeof placing === 'string') return skip(placing);
  const changes: PreparedChange[] = [];
  for (const file of placing.files) {
    const relative = path.posix.join(cwd, file.path);
    const before = await tree.state(relative);
    const existing = file.append === true ? await tree.file(relative) : '';
    if (existing === null) return skip(`${relative} could not be read to add the canaries`);
    const after = Buffer.from(existing + file.content);
    changes.push({
      path: relative,
      before: file.append === true ? before : { exists: false },
      after,
    });
  }
  return {
    placed: true,
    plan: {
      passing: placing.passing,
      failing: placing.failing,
      changes,
      command: placing.command ?? [...options.command],
      failureExitCode: placing.exit,
    },
  };
}

/** The hypothesis's changes with the canaries' on top (a canary appended replaces the change). */
export function withCanaries(
  changes: readonly PreparedChange[],
  canaries: readonly PreparedChange[],
): PreparedChange[] {
  const replaced = new Set(canaries.map((c) => c.path));
  return [...changes.filter((c) => !replaced.has(c.path)), ...canaries];
}

// ---- pytest ----------------------------------------------------------------------------------

// Options whose value is the next argument, so the value is not taken for a path.
const pytestValued = new Set([
  '-c',
  '-o',
  '-p',
  '-W',
  '-r',
  '--tb',
  '--rootdir',
  '--confcutdir',
  '--basetemp',
  '--junitxml',
  '--junit-xml',
  '--deselect',
  '--ignore',
  '--ignore-glob',
  '--durations',
  '--log-level',
  '--import-mode',
  '--cov',
  '--cov-report',
  '--override-ini',
  '--config-file',
  '-n',
  '--dist',
  '--color',
  '--capture',
  '--log-file',
  '--timeout',
]);
// Options that would leave the canaries out (selection) or let the failing one end the run early.
const pytestSelecting =
  /^(?:-k|-m|-x|--exitfirst|--maxfail|--lf|--last-failed|--sw|--stepwise|--co|--collect-only|--pyargs|-k.+|-m.+)(?:=.*)?$/;

async function pytestConfig(tree: RunTree, cwd: string): Promise<string | null> {
  const sources: [string, RegExp][] = [
    ['pytest.ini', /^\[pytest\]\s*$/m],
    ['pyproject.toml', /^\[tool\.pytest(?:\.ini_options)?\]\s*$/m],
    ['tox.ini', /^\[pytest\]\s*$/m],
    ['setup.cfg', /^\[tool:pytest\]\s*$/m],
  ];
  for (const [file, header] of sources) {
    const text = await tree.file(path.posix.join(cwd, file));
    const match = text === null ? null : header.exec(text);
    if (text === null || match === null) continue;
    const rest = text.slice(match.index + match[0].length);
    const end = rest.search(/^\[/m);
    return end < 0 ? rest : rest.slice(0, end);
  }
  return null;
}

/** A config value as a list: ini (`a b`, continued lines) or toml (`["a", "b"]`, `"a b"`). */
function configList(section: string, key: string): string[] | null {
  const match = new RegExp(String.raw`^${key}\s*=\s*(.*(?:\n[ \t]+.*)*)`, 'm').exec(section);
  if (match === null) return null;
  const value = (match[1] ?? '').trim();
  if (value.startsWith('[')) {
    return [...value.matchAll(/"([^"]*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2] ?? '');
  }
  const unquoted = /^(["'])(.*)\1$/s.exec(value)?.[2] ?? value;
  return unquoted.split(/\s+/).filter((v) => v !== '');
}

async function pytestCanaries(
  tree: RunTree,
  cwd: string,
  args: readonly string[],
  names: Names,
): Promise<Placing> {
  const config = await pytestConfig(tree, cwd);
  const addopts = config === null ? [] : (configList(config, 'addopts') ?? []);
  const positional: string[] = [];
  const all = [...addopts, ...args];
  for (let i = 0; i < all.length; i += 1) {
    const arg = all[i] ?? '';
    if (pytestSelecting.test(arg)) {
      return `the command selects tests or stops at the first failure (${arg}), so canaries could not be collected`;
    }
    if (pytestValued.has(arg)) i += 1;
    else if (!arg.startsWith('-')) positional.push(arg);
  }
  const files = config === null ? null : configList(config, 'python_files');
  if (files !== null && !files.some((p) => globMatch(p, `test_${names.file}.py`))) {
    return `python_files (${files.join(' ')}) would not collect a canary file`;
  }
  let dir = '.';
  if (positional.length > 0) {
    for (const p of positional) {
      if (!(await tree.isDir(path.posix.join(cwd, p)))) {
        return `the command names test files (${p}), so canaries could not be collected`;
      }
    }
    dir = positional[0] ?? '.';
  } else {
    const testpaths = config === null ? null : configList(config, 'testpaths');
    const first = testpaths?.[0];
    if (first !== undefined) {
      if (/[*?[]/.test(first) || !(await tree.isDir(path.posix.join(cwd, first)))) {
        return `testpaths (${first}) names no directory to place canaries in`;
      }
      dir = first;
    }
  }
  const test = (n: string): string => `test_${n}`;
  return {
    files: [
      {
        path: path.posix.join(dir, `test_${names.file}.py`),
        content: [
          `def ${test(names.passing)}():`,
          '    assert 1 + 1 == 2',
          '',
          '',
          `def ${test(names.failing)}():`,
          '    assert 1 + 1 == 3',
          '',
        ].join('\n'),
      },
    ],
    passing: test(names.passing),
    failing: test(names.failing),
    exit: 1,
  };
}

function globMatch(pattern: string, name: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(name);
}

// ---- unittest --------------------------------------------------------------------------------

async function unittestCanaries(
  tree: RunTree,
  cwd: string,
  args: readonly string[],
  names: Names,
): Promise<Placing> {
  let start = '.';
  let pattern = 'test*.py';
  const rest = args[0] === 'discover' ? args.slice(1) : args;
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i] ?? '';
    const value = rest[i + 1] ?? '';
    if (arg === '-s' || arg === '--start-directory') [start, i] = [value, i + 1];
    else if (arg === '-p' || arg === '--pattern') [pattern, i] = [value, i + 1];
    else if (arg === '-t' || arg === '--top-level-directory') i += 1;
    else if (/^(?:-k|-f|--failfast)$/.test(arg) || arg.startsWith('-k')) {
      return `the command selects tests or stops at the first failure (${arg}), so canaries could not be collected`;
    } else if (!arg.startsWith('-')) positional.push(arg);
  }
  // `discover START PATTERN`: positional forms of -s and -p; anything else names modules.
  if (args[0] === 'discover') {
    if (positional[0] !== undefined) start = positional[0];
    if (positional[1] !== undefined) pattern = positional[1];
  } else if (positional.length > 0) {
    return `the command names test modules (${positional.join(' ')}), so canaries could not be collected`;
  }
  const file = `test_${names.file}.py`;
  if (!globMatch(pattern, file)) return `the discovery pattern ${pattern} would not find a canary`;
  if (!(await tree.isDir(path.posix.join(cwd, start)))) {
    return `the start directory ${start} is not a directory of the tree`;
  }
  const test = (n: string): string => `test_${n}`;
  return {
    files: [
      {
        path: path.posix.join(start, file),
        content: [
          'import unittest',
          '',
          '',
          `class Test${names.file.toUpperCase()}(unittest.TestCase):`,
          `    def ${test(names.passing)}(self):`,
          '        self.assertEqual(1 + 1, 2)',
          '',
          `    def ${test(names.failing)}(self):`,
          '        self.assertEqual(1 + 1, 3)',
          '',
        ].join('\n'),
      },
    ],
    passing: test(names.passing),
    failing: test(names.failing),
    exit: 1,
  };
}

// ---- node:test -------------------------------------------------------------------------------

// node --test's default patterns (Node 20): test.js, test-*.js, *.test.js, *-test.js, *_test.js,
// and any script under a `test` directory.
const nodeTestFile = /^(?:test|test-.+|.+[.\-_]test)\.[cm]?js$/;
const skipDirs = new Set(['node_modules/', '.git/']);
const maxListed = 5000;

async function nodeTestFiles(tree: RunTree, dir: string): Promise<string[]> {
  const found: string[] = [];
  let listed = 0;
  const walk = async (relative: string, underTest: boolean): Promise<void> => {
    for (const entry of await tree.list(relative)) {
      listed += 1;
      if (listed > maxListed) return;
      if (entry.endsWith('/')) {
        if (skipDirs.has(entry) || entry.startsWith('.')) continue;
        await walk(path.posix.join(relative, entry), underTest || entry === 'test/');
      } else if (nodeTestFile.test(entry) || (underTest && /\.[cm]?js$/.test(entry))) {
        found.push(path.posix.join(relative, entry));
      }
    }
  };
  await walk(dir, false);
  return found;
}

/** Whether a `.js` file is an ES module: the nearest package.json says `"type": "module"`. */
async function isModule(tree: RunTree, file: string): Promise<boolean> {
  if (file.endsWith('.mjs')) return true;
  if (file.endsWith('.cjs')) return false;
  for (let dir = path.posix.dirname(file); ; dir = path.posix.dirname(dir)) {
    const manifest = await tree.file(path.posix.join(dir, 'package.json'));
    if (manifest !== null) return /"type"\s*:\s*"module"/.test(manifest);
    if (dir === '.' || dir === '/') return false;
  }
}

async function nodeCanaries(
  tree: RunTree,
  cwd: string,
  args: readonly string[],
  names: Names,
): Promise<Placing> {
  const positional: string[] = [];
  for (const arg of args) {
    if (/^--test-(?:name-pattern|skip-pattern|only)/.test(arg)) {
      return `the command selects tests (${arg}), so canaries could not be collected`;
    }
    if (!arg.startsWith('-')) positional.push(arg);
  }
  const candidates: string[] = [];
  for (const p of positional.length === 0 ? ['.'] : positional) {
    const relative = path.posix.join(cwd, p);
    if (await tree.isDir(relative)) candidates.push(...(await nodeTestFiles(tree, relative)));
    else if ((await tree.file(relative)) !== null && /\.[cm]?js$/.test(p))
      candidates.push(relative);
    else return `the command names ${p}, which is not a test script of the tree`;
  }
  // Each test file runs in its own process: the canaries go into one of the suite's own files,
  // chosen at random, so code that tampers with the runner from inside a test file meets them.
  const chosen = candidates[randomInt(Math.max(1, candidates.length))];
  if (chosen === undefined) return 'no test file was found to add the canaries to';
  const test = (n: string): string => `test_${n}`;
  const body = (req: string): string =>
    [
      `{ const t = ${req}('node:test'); const a = () => ${req}('node:assert');`,
      `  t.test('${test(names.passing)}', () => { a().strictEqual(1 + 1, 2); });`,
      `  t.test('${test(names.failing)}', () => { a().strictEqual(1 + 1, 3); }); }`,
    ].join('\n');
  const content = (await isModule(tree, chosen))
    ? `\n;{ const r = (await import('node:module')).createRequire(import.meta.url);\n${body('r')} }\n`
    : `\n;${body('require')}\n`;
  return {
    // Paths are relative to cwd in `files`: make the chosen one so.
    files: [{ path: path.posix.relative(cwd, chosen) || chosen, content, append: true }],
    passing: test(names.passing),
    failing: test(names.failing),
    exit: 1,
  };
}

// ---- jest, vitest, mocha ---------------------------------------------------------------------

// Their configs decide which files run (testMatch, include, roots, projects): rather than read
// them, the canaries go into a file the reference run showed running. Ids start with the file.
const idFile = { jest: ' › ', vitest: ' > ' } as const;

async function jsFileCanaries(
  runner: 'jest' | 'vitest',
  tree: RunTree,
  cwd: string,
  knownTests: readonly string[],
  names: Names,
): Promise<Placing> {
  const files = [...new Set(knownTests.map((id) => id.split(idFile[runner])[0] ?? ''))];
  const present: string[] = [];
  for (const file of files.filter((f) => /\.[cm]?[jt]sx?$/.test(f))) {
    if ((await tree.file(path.posix.join(cwd, file))) !== null) present.push(file);
  }
  const chosen = present[randomInt(Math.max(1, present.length))];
  if (chosen === undefined) return 'no test file of the reference run to add the canaries to';
  if (runner === 'jest') {
    for (const config of [
      'package.json',
      'jest.config.js',
      'jest.config.ts',
      'jest.config.cjs',
      'jest.config.mjs',
      'jest.config.json',
    ]) {
      if (/injectGlobals/.test((await tree.file(path.posix.join(cwd, config))) ?? '')) {
        return 'jest is configured without its globals (injectGlobals): no canaries';
      }
    }
  }
  const test = (n: string): string => `test_${n}`;
  const alias = `canary_${names.file}`;
  const lines =
    runner === 'vitest'
      ? [
          `import { test as ${alias}_test, expect as ${alias}_expect } from 'vitest';`,
          `${alias}_test('${test(names.passing)}', () => { ${alias}_expect(1 + 1).toBe(2); });`,
          `${alias}_test('${test(names.failing)}', () => { ${alias}_expect(1 + 1).toBe(3); });`,
        ]
      : [
          `test('${test(names.passing)}', () => { expect(1 + 1).toBe(2); });`,
          `test('${test(names.failing)}', () => { expect(1 + 1).toBe(3); });`,
        ];
  return {
    files: [{ path: chosen, content: `\n;${lines.join('\n')}\n`, append: true }],
    passing: test(names.passing),
    failing: test(names.failing),
    exit: 1,
  };
}

// Mocha loads every spec file into one process before it runs any: a new file in its default
// spec directory meets whatever the suite's code patched. A config file may name other specs.
async function mochaCanaries(
  tree: RunTree,
  cwd: string,
  args: readonly string[],
  names: Names,
): Promise<Placing> {
  for (const arg of args) {
    if (/^(?:-g|--grep|-f|--fgrep|-b|--bail|--forbid-only|--config|--spec)(?:=.*)?$/.test(arg)) {
      return `the command selects tests or stops at the first failure (${arg}), so canaries could not be placed`;
    }
    if (!arg.startsWith('-'))
      return `the command names its specs (${arg}), so canaries could not be placed`;
  }
  const configs = [
    '.mocharc.js',
    '.mocharc.cjs',
    '.mocharc.yaml',
    '.mocharc.yml',
    '.mocharc.json',
    '.mocharc.jsonc',
  ];
  for (const config of configs) {
    if ((await tree.file(path.posix.join(cwd, config))) !== null) {
      return `${config} may name other specs, so canaries could not be placed`;
    }
  }
  if (/"mocha"\s*:/.test((await tree.file(path.posix.join(cwd, 'package.json'))) ?? '')) {
    return 'package.json configures mocha, so canaries could not be placed';
  }
  if (!(await tree.isDir(path.posix.join(cwd, 'test'))))
    return 'no test/ directory for mocha to find canaries in';
  const test = (n: string): string => `test_${n}`;
  return {
    files: [
      {
        path: `test/canary-${names.file}.cjs`,
        content: [
          `it('${test(names.passing)}', () => { require('node:assert').strictEqual(1 + 1, 2); });`,
          `it('${test(names.failing)}', () => { require('node:assert').strictEqual(1 + 1, 3); });`,
          '',
        ].join('\n'),
      },
    ],
    passing: test(names.passing),
    failing: test(names.failing),
    exit: 1,
  };
}

// ---- cargo -----------------------------------------------------------------------------------

// Arguments after `cargo test` that run less than the whole crate's tests.
const cargoNarrowing =
  /^(?:--test|--bench|--example|--bin|--doc|-p|--package|--manifest-path|--exclude|--benches|--examples|--bins|--tests)(?:=.*)?$/;
const cargoValued = new Set([
  '--features',
  '-F',
  '--target',
  '--color',
  '--config',
  '-j',
  '--jobs',
  '--profile',
  '--target-dir',
  '-Z',
]);

async function cargoCanaries(
  tree: RunTree,
  cwd: string,
  command: readonly string[],
  changes: readonly PreparedChange[],
  names: Names,
): Promise<Placing> {
  const { name, args } = resolveTool(command);
  const testAt = args.indexOf('test');
  if (name !== 'cargo' || testAt < 0) return 'unsupported';
  const after = args.slice(testAt + 1);
  const separator = after.indexOf('--');
  const own = separator < 0 ? after : after.slice(0, separator);
  const harness = separator < 0 ? [] : after.slice(separator + 1);
  for (let i = 0; i < own.length; i += 1) {
    const arg = own[i] ?? '';
    if (cargoNarrowing.test(arg)) {
      return `the command runs only part of the crate (${arg}), so canaries could not be placed`;
    }
    if (cargoValued.has(arg)) i += 1;
    else if (!arg.startsWith('-')) {
      return `the command filters tests by name (${arg}), so canaries could not be collected`;
    }
  }
  if (harness.some((a) => !a.startsWith('-') || /^--(?:exact|skip)/.test(a))) {
    return 'the command filters tests by name, so canaries could not be collected';
  }
  const manifest = await tree.file(path.posix.join(cwd, 'Cargo.toml'));
  if (manifest === null || !/^\[package\]/m.test(manifest)) {
    return 'no package manifest (Cargo.toml with [package]) in the directory the command runs in';
  }
  // Inline tests see the crate's own macros: the canaries go into the crate (see cargoTarget), as
  // a module compiled under cfg(test) after everything the file defines, so a shadowed
  // assert_eq! in scope for the crate's tests is in scope for them too.
  const libPath = /^\[lib\][^[]*?^path\s*=\s*"([^"]+)"/ms.exec(manifest)?.[1];
  const roots = [libPath ?? 'src/lib.rs', 'src/main.rs'];
  let root: string | null = null;
  for (const candidate of roots) {
    if ((await tree.file(path.posix.join(cwd, candidate))) !== null) {
      root = candidate;
      break;
    }
  }
  if (root === null) return `no crate root (${roots.join(', ')}) to add the canaries to`;
  const fn = (n: string): string => `test_${n}`;
  // Fast-failing is cargo's default: without --no-fail-fast the failing canary would stop cargo
  // before the integration and doc tests of an honest run.
  const fullCommand = own.includes('--no-fail-fast')
    ? [...command]
    : insertAfter(command, command.length - args.length + testAt, '--no-fail-fast');
  // A library built without its unit tests (`[lib] test = false`) never compiles an inline module:
  // the canaries are an integration test of their own instead, which cargo finds in tests/.
  const libSection = /^\[lib\]([^[]*)/m.exec(manifest)?.[1] ?? '';
  if (root !== 'src/main.rs' && /^\s*test\s*=\s*false\s*$/m.test(libSection)) {
    const packageSection = /^\[package\]([^[]*)/m.exec(manifest)?.[1] ?? '';
    if (/^\s*autotests\s*=\s*false\s*$/m.test(packageSection)) {
      return 'the crate builds no unit tests and discovers no integration tests (autotests = false), so canaries could not be collected';
    }
    const content = [
      `#[test]\nfn ${fn(names.passing)}() {\n    assert_eq!(1 + 1, std::hint::black_box(2));\n}`,
      `#[test]\nfn ${fn(names.failing)}() {\n    assert_eq!(1 + 1, std::hint::black_box(3));\n}\n`,
    ].join('\n\n');
    return {
      files: [{ path: `tests/canary_${names.file}.rs`, content }],
      passing: fn(names.passing),
      failing: fn(names.failing),
      command: fullCommand,
      exit: 101,
    };
  }
  const target = await cargoTarget(tree, cwd, root, changes);
  const module = `canary_${names.file}`;
  const content = [
    '',
    '#[cfg(test)]',
    '#[allow(clippy::all, unused)]',
    `mod ${module} {`,
    '    #[test]',
    `    fn ${fn(names.passing)}() {`,
    '        assert_eq!(1 + 1, std::hint::black_box(2));',
    '    }',
    '    #[test]',
    `    fn ${fn(names.failing)}() {`,
    '        assert_eq!(1 + 1, std::hint::black_box(3));',
    '    }',
    '}',
    '',
  ].join('\n');
  return {
    files: [{ path: target, content, append: true }],
    passing: fn(names.passing),
    failing: fn(names.failing),
    command: fullCommand,
    exit: 101,
  };
}

/**
 * The file the cargo canaries go into. A new module at the crate root would make rustc redo the
 * crate's incremental work beyond what the hypothesis changed (about 5% of a run on the bench
 * crate), so when the hypothesis leaves the root alone they go into one of the top-level modules
 * it changed (`src/<name>.rs` that the root declares with `mod <name>;`), chosen at random: what
 * that module's tests see (a macro defined in it or in the root above it), the canaries see.
 */
async function cargoTarget(
  tree: RunTree,
  cwd: string,
  root: string,
  changes: readonly PreparedChange[],
): Promise<string> {
  const relative = (p: string): string => path.posix.relative(cwd, p);
  const changed = changes.filter((c) => c.after !== null).map((c) => relative(c.path));
  if (changed.includes(root)) return root;
  const rootText = (await tree.file(path.posix.join(cwd, root))) ?? '';
  const dir = path.posix.dirname(root);
  const modules = changed.filter((file) => {
    const name = new RegExp(`^${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(\\w+)\\.rs$`).exec(
      file,
    )?.[1];
    return (
      name !== undefined &&
      name !== 'main' &&
      name !== 'lib' &&
      new RegExp(String.raw`^\s*(?:pub(?:\([\w:]+\))?\s+)?mod\s+${name}\s*;`, 'm').test(rootText)
    );
  });
  return modules[randomInt(Math.max(1, modules.length))] ?? root;
}

function insertAfter(argv: readonly string[], index: number, arg: string): string[] {
  return [...argv.slice(0, index + 1), arg, ...argv.slice(index + 1)];
}

// ---- go --------------------------------------------------------------------------------------

async function goCanaries(
  tree: RunTree,
  cwd: string,
  args: readonly string[],
  names: Names,
): Promise<Placing> {
  const positional: string[] = [];
  for (let i = 1; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (/^-(?:run|skip|failfast|list)(?:=.*)?$/.test(arg)) {
      return `the command selects tests or stops at the first failure (${arg}), so canaries could not be collected`;
    }
    if (
      /^-(?:tags|timeout|count|p|parallel|cpu|coverprofile|covermode|coverpkg|o|exec|ldflags|gcflags)$/.test(
        arg,
      )
    )
      i += 1;
    else if (!arg.startsWith('-')) positional.push(arg);
  }
  const pattern = positional[0] ?? '.';
  const recursive = pattern.endsWith('/...');
  const base = recursive ? pattern.slice(0, -4) || '.' : pattern;
  const start = path.posix.join(cwd, base);
  // The first directory the command covers that holds a non-test package.
  const queue = [start];
  for (let seen = 0; queue.length > 0 && seen < maxListed; seen += 1) {
    const dir = queue.shift() ?? start;
    const entries = await tree.list(dir);
    for (const entry of entries.filter((e) => e.endsWith('.go') && !e.endsWith('_test.go'))) {
      const source = await tree.file(path.posix.join(dir, entry));
      const pkg = source === null ? undefined : /^package\s+(\w+)/m.exec(source)?.[1];
      if (pkg === undefined) continue;
      const test = (n: string): string => `Test${n.toUpperCase()}`;
      return {
        files: [
          {
            path: path.posix.relative(cwd, path.posix.join(dir, `canary_${names.file}_test.go`)),
            content: [
              `package ${pkg}`,
              '',
              'import "testing"',
              '',
              `func ${test(names.passing)}(t *testing.T) {`,
              '\tif one := len("x"); one+one != 2 {',
              '\t\tt.Fatal("1 + 1 != 2")',
              '\t}',
              '}',
              '',
              `func ${test(names.failing)}(t *testing.T) {`,
              '\tif one := len("x"); one+one != 3 {',
              '\t\tt.Fatal("1 + 1 != 3")',
              '\t}',
              '}',
              '',
            ].join('\n'),
          },
        ],
        passing: test(names.passing),
        failing: test(names.failing),
        exit: 1,
      };
    }
    if (!recursive) break;
    for (const entry of entries) {
      if (
        entry.endsWith('/') &&
        !entry.startsWith('.') &&
        entry !== 'vendor/' &&
        entry !== 'testdata/'
      ) {
        queue.push(path.posix.join(dir, entry));
      }
    }
  }
  return 'no Go package in the directories the command covers';
}
