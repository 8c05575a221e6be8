/**
 * Which files the project's test runners collect, and what they take for a test inside them.
 *
 * A class or function is a test because a runner collects it, not because of its name: a library
 * class `TestOperation` (a JSON-Patch "test" operation) in `jsonpatch/ops.py` is library code, and
 * a right fix to it must not count as a test edit. So a name counts only in a file the runner
 * collects, by its configuration and its defaults (see `collectionOf`).
 */

import { baseName, extensionOf } from './test-paths';

/**
 * How the runners treat one file:
 * - `test-file`: a pattern that picks files by their own name collects it (`check_*.py`,
 *   `*.check.ts`): where it holds tests, every change to it counts, as for `test_*.py`.
 * - `names`: it is collected but by a pattern that takes every file of a directory (`*.py`,
 *   `src/**\/*.ts`) or because the command names it: its tests are found by their names.
 * - `none`: no runner collects it: only markers that are not names make tests there (Rust's
 *   `#[test]`/`#[cfg(test)]`, `import.meta.vitest`, doctests).
 */
export type CollectedMode = 'test-file' | 'names' | 'none';

export interface Collected {
  readonly mode: CollectedMode;
  /** Which runner collects it and by what, in words ("pytest: python_files check_*.py in pytest.ini"). */
  readonly why: string;
}

/** pytest's `python_classes` / `python_functions`: name prefixes or fnmatch patterns. */
export interface PythonNames {
  readonly classes: readonly string[];
  readonly functions: readonly string[];
}

export interface Collection {
  readonly collected: (path: string) => Collected;
  readonly python: PythonNames;
}

/** One way a runner collects files: a path test, and words for it. */
export interface Matcher {
  readonly test: (path: string) => boolean;
  readonly why: string;
  /** The command names the file itself: collected whatever it is called (`names`). */
  readonly explicit?: boolean;
}

const rank: Readonly<Record<CollectedMode, number>> = { none: 0, names: 1, 'test-file': 2 };

/**
 * A file named like no test, next to `path`: a pattern that also collects it picks a directory's
 * every file rather than test files by name.
 */
function ordinarySibling(path: string): string {
  const extension = extensionOf(path);
  const dir = path.slice(0, path.length - baseName(path).length);
  return `${dir}zqxw9shadowbox${extension === '' ? '' : `.${extension}`}`;
}

/** The strongest way any matcher collects `path`. */
export function collectedBy(matchers: readonly Matcher[], path: string): Collected {
  let best: Collected = { mode: 'none', why: '' };
  let sibling: string | null = null;
  for (const matcher of matchers) {
    if (!matcher.test(path)) continue;
    sibling ??= ordinarySibling(path);
    const mode = matcher.explicit === true || matcher.test(sibling) ? 'names' : 'test-file';
    if (rank[mode] > rank[best.mode]) best = { mode, why: matcher.why };
  }
  return best;
}

/** Whether `name` matches one of pytest's name options (a prefix, or a glob where it has one). */
export function matchesNameOption(
  name: string,
  options: readonly string[],
  glob: (pattern: string) => RegExp,
): boolean {
  return options.some(
    (option) => name.startsWith(option) || (/[*?[]/.test(option) && glob(option).test(name)),
  );
}
