/**
 * The Python files pytest and unittest collect, and the names they take for tests there.
 *
 * pytest: files matching `python_files` (default `test_*.py *_test.py`) under the command's path
 * arguments, or else under `testpaths`, or else anywhere; files the command names; in them,
 * classes matching `python_classes` (default `Test`), functions and methods matching
 * `python_functions` (default `test`), and `unittest.TestCase` subclasses.
 * unittest: discovery's pattern (default `test*.py`) under its start directory, or the modules
 * the command names.
 * A command that names neither (`tox`, `make test`, a script) may run either: both count.
 */

import type { Matcher, PythonNames } from './collection';
import { fnmatchRegExp, globRegExp, hasGlob } from './globs';
import { findPytestConfig, pytestConfigPaths, type Files } from './pytest-config';
import { normalPath, optionValues, positionals, type RunnerCommand } from './runner-command';
import { baseName } from './test-paths';

const pytestDefaults = {
  python_files: ['test_*.py', '*_test.py'],
  python_classes: ['Test'],
  python_functions: ['test'],
};

// pytest options that take a value: their values are not paths to collect.
const pytestValued = new Set(
  (
    '-k -m -p -c -o -W -n -r --rootdir --confcutdir --basetemp --junitxml --junit-xml --deselect ' +
    '--ignore --ignore-glob --tb --maxfail --durations --durations-min --cov --cov-report ' +
    '--cov-config --log-level --log-cli-level --log-file --log-file-level --log-format ' +
    '--capture --import-mode --override-ini --config-file --timeout --dist --reruns ' +
    '--color --code-highlight --junit-prefix --doctest-glob --pythonwarnings --lfnf ' +
    '--last-failed-no-failures --maxprocesses --tx'
  ).split(' '),
);
const unittestValued = new Set([
  '-k',
  '-s',
  '-p',
  '-t',
  '--start-directory',
  '--pattern',
  '--top-level-directory',
]);

const under = (path: string, root: string): boolean =>
  root === '' || path === root || path.startsWith(`${root}/`);

/** pytest's `fnmatch_ex`: a pattern without `/` is matched against the file name. */
function pytestFileTest(pattern: string): (path: string) => boolean {
  const re = fnmatchRegExp(pattern);
  if (!pattern.includes('/')) return (path) => re.test(baseName(path));
  const anywhere = fnmatchRegExp(`*/${pattern}`);
  return (path) => re.test(path) || anywhere.test(`/${path}`);
}

/** A `testpaths` entry (a glob since pytest 7) as a test of the directories a path lies in. */
function rootTest(dir: string, entry: string): (path: string) => boolean {
  const root = normalPath(dir === '' ? entry : `${dir}/${entry}`);
  if (!hasGlob(root)) return (path) => under(path, root);
  const re = globRegExp(root);
  return (path) => {
    const parts = path.split('/');
    return parts.some((_, i) => re.test(parts.slice(0, i + 1).join('/')));
  };
}

export interface PythonCollection {
  readonly matchers: Matcher[];
  readonly names: PythonNames;
}

const pytestPaths = (args: readonly string[]): string[] =>
  positionals(args, pytestValued).map(normalPath);
const pytestExplicitConfig = (args: readonly string[]): string | null =>
  optionValues(args, ['-c', '--config-file']).map(normalPath)[0] ?? null;

function pytestCollection(files: Files, args: readonly string[]): PythonCollection {
  const paths = pytestPaths(args);
  const config = findPytestConfig(files, paths, pytestExplicitConfig(args));
  const overrides = new Map<string, string[]>();
  for (const value of optionValues(args, ['-o', '--override-ini'])) {
    const eq = value.indexOf('=');
    if (eq > 0)
      overrides.set(
        value.slice(0, eq).trim(),
        value
          .slice(eq + 1)
          .trim()
          .split(/\s+/),
      );
  }
  const option = (key: keyof typeof pytestDefaults): { values: string[]; where: string | null } => {
    const given = overrides.get(key) ?? config.values.get(key);
    const where = overrides.has(key) ? 'the command' : config.source;
    return given === undefined || given.length === 0
      ? { values: pytestDefaults[key], where: null }
      : { values: [...given], where };
  };
  const testpaths = [...(config.values.get('testpaths') ?? [])];
  // Arguments replace testpaths; testpaths replace "everything under the rootdir".
  const roots: ((path: string) => boolean)[] =
    paths.length > 0
      ? paths.map((p) => (path: string) => under(path, p))
      : testpaths.length > 0
        ? testpaths.map((entry) => rootTest(config.dir, entry))
        : [() => true];
  const pythonFiles = option('python_files');
  const matchers: Matcher[] = pythonFiles.values.map((pattern) => {
    const matches = pytestFileTest(pattern);
    return {
      test: (path) => matches(path) && roots.some((root) => root(path)),
      why:
        pythonFiles.where === null
          ? `pytest collects ${pattern} files by default`
          : `pytest collects it: python_files ${pattern} in ${pythonFiles.where}`,
    };
  });
  for (const file of paths.filter((p) => p.endsWith('.py'))) {
    matchers.push({
      test: (path) => path === file,
      why: 'the test command names it',
      explicit: true,
    });
  }
  return {
    matchers,
    names: {
      classes: option('python_classes').values,
      functions: option('python_functions').values,
    },
  };
}

function unittestCollection(args: readonly string[]): PythonCollection {
  const named = positionals(args, unittestValued);
  const discover = named.length === 0 || named[0] === 'discover';
  const names: PythonNames = { classes: [], functions: ['test'] };
  if (!discover) {
    // `python -m unittest tests.test_calc` or `tests/test_calc.py`: those modules (or packages).
    const modules = named.map((arg) => normalPath(arg).replace(/\.py$/, '').replace(/\//g, '.'));
    const matchers: Matcher[] = [
      {
        test: (path) => {
          const module = path.replace(/(?:\/__init__)?\.py$/, '').replace(/\//g, '.');
          return modules.some(
            (m) => m === module || m.startsWith(`${module}.`) || module.startsWith(`${m}.`),
          );
        },
        why: 'the test command names it',
        explicit: true,
      },
    ];
    return { matchers, names };
  }
  const rest = named.slice(1);
  const start = normalPath(optionValues(args, ['-s', '--start-directory'])[0] ?? rest[0] ?? '.');
  const pattern = optionValues(args, ['-p', '--pattern'])[0] ?? rest[1] ?? 'test*.py';
  const re = fnmatchRegExp(pattern);
  return {
    matchers: [
      {
        test: (path) => under(path, start) && re.test(baseName(path)),
        why: `unittest discovers ${pattern} files`,
      },
    ],
    names,
  };
}

/** The configuration files `pythonCollection` may read for this command. */
export function pythonConfigPaths(command: RunnerCommand): string[] {
  if (command.runner === 'unittest') return [];
  const args = command.runner === 'pytest' ? command.args : [];
  return pytestConfigPaths(pytestPaths(args), pytestExplicitConfig(args));
}

/** What the command's Python runner collects; both runners' defaults where it names neither. */
export function pythonCollection(files: Files, command: RunnerCommand): PythonCollection {
  if (command.runner === 'pytest') return pytestCollection(files, command.args);
  if (command.runner === 'unittest') return unittestCollection(command.args);
  const pytest = pytestCollection(files, []);
  const unittest = unittestCollection([]);
  return {
    matchers: [...pytest.matchers, ...unittest.matchers],
    names: {
      classes: pytest.names.classes,
      functions: [...new Set([...pytest.names.functions, ...unittest.names.functions])],
    },
  };
}
