import { toLines } from '../parsers/text';
import { isTestPath } from '../review/diff-flags';

/** A repository file named in a test run's output, with the first line number given for it. */
export interface FailureLocation {
  readonly path: string;
  readonly line: number | null;
}

// `File "/ws/calc.py", line 17` (Python tracebacks).
const pythonFrame = /File "([^"\n]+)", line (\d+)/g;
// A path-like token with an extension, optionally followed by `:line` or `:line:column`:
// `src/lib.rs:12:5`, `--> src/lib.rs:3:1`, `tests/test_x.py:17:`, `tests/test_x.py::test_add`,
// `(/ws/src/sum.test.ts:5:20)`, `calc_test.go:12:`.
const pathToken =
  /(?<![\w.@+~/-])((?:\.{1,2}\/|\/)?(?:[\w.@+~-]+\/)*[\w@+~-][\w.@+~-]*\.[A-Za-z][A-Za-z0-9_]*)(?::(\d+)(?::\d+)?)?/g;

/**
 * The repository files a test run's output names, in order of first mention. A name counts only if
 * it is a file of the repository: exactly, below the workspace's absolute path, or as the unique
 * file whose path ends with it (a runner started in a subdirectory prints shorter paths).
 */
export function failureLocations(
  output: string,
  files: readonly string[],
  workspace: string | null,
): FailureLocation[] {
  const known = new Set(files);
  const prefix = workspace === null ? null : `${workspace.replace(/\/+$/, '')}/`;
  const found = new Map<string, number | null>();
  const note = (raw: string, line: string | undefined): void => {
    const path = resolve(raw, known, files, prefix);
    if (path === null) return;
    const number = line === undefined ? null : Number.parseInt(line, 10);
    const earlier = found.get(path);
    if (earlier === undefined) found.set(path, number);
    else if (earlier === null && number !== null) found.set(path, number);
  };
  for (const rawLine of toLines(output)) {
    const text = rawLine.replace(/file:\/\//g, '');
    for (const match of text.matchAll(pythonFrame)) note(match[1] ?? '', match[2]);
    for (const match of text.matchAll(pathToken)) note(match[1] ?? '', match[2]);
  }
  return [...found].map(([path, line]) => ({ path, line }));
}

function resolve(
  raw: string,
  known: ReadonlySet<string>,
  files: readonly string[],
  prefix: string | null,
): string | null {
  let candidate = raw;
  if (candidate.startsWith('/')) {
    if (prefix === null || !candidate.startsWith(prefix)) return null;
    candidate = candidate.slice(prefix.length);
  }
  while (candidate.startsWith('./')) candidate = candidate.slice(2);
  if (candidate === '' || candidate.split('/').includes('..')) return null;
  if (known.has(candidate)) return candidate;
  const suffix = `/${candidate}`;
  const matches = files.filter((file) => file.endsWith(suffix));
  return matches.length === 1 ? (matches[0] ?? null) : null;
}

// Lines that bring another module in: the names on them may be files of the repository.
const importLine =
  /^\s*(?:import|from|use|pub\s+use|mod|pub\s+mod|#\s*include|require|using|extern\s+crate)\b|\brequire\s*\(|\bimport\s*\(/;
const genericStems = new Set([
  'lib',
  'mod',
  'main',
  'index',
  '__init__',
  '__main__',
  'setup',
  'conftest',
  'build',
]);

const stemOf = (path: string): string => {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.indexOf('.');
  return dot <= 0 ? name : name.slice(0, dot);
};

/**
 * Non-test files that the given files import by name (`from calc import add`, `use crate::parser`,
 * `import { sum } from './sum'`, `#include "calc.h"`): usually the code under test when the output
 * names only the test. In order of mention, at most `limit`.
 */
export function referencedFiles(
  sources: readonly { readonly path: string; readonly content: string }[],
  files: readonly string[],
  exclude: ReadonlySet<string>,
  limit = 8,
): string[] {
  const byStem = new Map<string, string[]>();
  for (const file of files) {
    const stem = stemOf(file);
    if (stem.length < 2 || genericStems.has(stem) || isTestPath(file)) continue;
    const list = byStem.get(stem) ?? [];
    list.push(file);
    byStem.set(stem, list);
  }
  const result: string[] = [];
  const seen = new Set(exclude);
  for (const source of sources) {
    for (const line of source.content.split('\n')) {
      if (!importLine.test(line)) continue;
      for (const word of line.match(/[A-Za-z_][\w-]*/g) ?? []) {
        for (const file of byStem.get(word) ?? []) {
          if (seen.has(file)) continue;
          seen.add(file);
          result.push(file);
          if (result.length >= limit) return result;
        }
      }
    }
  }
  return result;
}

const sourceExtension =
  /\.(?:py|rs|go|[cm]?[jt]sx?|java|kt|kts|scala|rb|php|c|h|cc|cpp|cxx|hh|hpp|cs|swift|m|ex|exs|erl|hs|ml|clj|lua|sh|zig|dart)$/;
const configExtension = /\.(?:toml|cfg|ini|json|ya?ml|txt|mod|gradle|xml|cmake)$|(?:^|\/)Makefile$/;
const skippedDirectory =
  /(?:^|\/)(?:\.[^/]*|node_modules|target|vendor|dist|build|out|__pycache__|venv|site-packages)\//;
const lockFile = /(?:^|\/)(?:[^/]*\.lock|package-lock\.json|pnpm-lock\.yaml|go\.sum)$/;

/**
 * Other files worth showing when the budget allows (small repositories fit whole): source files
 * before configuration, non-test before test, shallow before deep. Dependencies, build output,
 * hidden directories and lock files are never candidates.
 */
export function fillCandidates(
  files: readonly string[],
  exclude: ReadonlySet<string>,
  limit: number,
): string[] {
  return files
    .filter(
      (file) =>
        !exclude.has(file) &&
        !skippedDirectory.test(file) &&
        !lockFile.test(file) &&
        (sourceExtension.test(file) || configExtension.test(file)),
    )
    .map((file) => ({
      file,
      key: [
        isTestPath(file) ? 1 : 0,
        sourceExtension.test(file) ? 0 : 1,
        file.split('/').length,
      ] as const,
    }))
    .sort(
      (a, b) =>
        a.key[0] - b.key[0] ||
        a.key[1] - b.key[1] ||
        a.key[2] - b.key[2] ||
        (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
    )
    .slice(0, limit)
    .map(({ file }) => file);
}
