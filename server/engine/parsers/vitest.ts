// Vitest: the summary block at the end,
//    Test Files  1 failed | 1 passed (2)
//         Tests  2 failed | 3 passed | 1 skipped | 1 todo (7)
//        Errors  1 error
// A test can log a line that looks like ` Tests  99 passed (99)`, but not the `Test Files` line
// right above it: the last `Test Files` line starts the real block.
//
// Decisions:
// - todo counts as skipped.
// - A file that fails to load, or a describe block whose `beforeAll` throws, is listed under
//   `Failed Suites N`; each such suite counts as one failure (its tests, if any, are reported as
//   skipped). Unhandled errors (`Errors  N errors`) fail the run and count as failures too.
// - `No test files found` is `parsed: true` with 0/0/0.
//
// Test ids are vitest's full names, `test/cart.test.js > cart > discounts > applies a coupon`:
// the verbose reporter prints one line per test (`✓ file > … > name 2ms`, `×`, `↓` skipped,
// `□` todo). The default reporter lists the tests of a file only when the file failed, and
// without their describe blocks (only the indentation shows them), so its names are complete only
// when every file is listed and no test sits inside a describe. A failed suite is named as in its
// `FAIL` line (`h.test.js > db`, or the file), an unhandled error `(unhandled error)`.
import { withTests } from './test-list';
import { counts, unparsed, type TestCase, type TestCounts, type TestStatus } from './types';
import { countParts, get, lastIndexMatching, num, toLines } from './text';

export const vitestFilesPattern = /^\s*Test Files\s+(.*)$/;
const testsPattern = /^\s*Tests\s+(.*)$/;
const errorsPattern = /^\s*Errors\s+(\d+) errors?/;
const failedSuitesPattern = /^⎯+ Failed Suites (\d+) ⎯+$/;
const sectionPattern = /^⎯+ .* ⎯+$/;
const failedSuitePattern = /^ FAIL {2}(.+?)(?: \[ .* \])?$/;
const noTestsPattern = /^No test files found, exiting with code \d+$/;
const fileLinePattern = /^ [✓❯×↓] (\S.*?) \(\d+ tests?(?: \| [^)]*)?\)(?: \d+(?:\.\d+)?m?s)?$/;
const verboseLinePattern = /^ ([✓×↓□]) (\S.*? > .*)$/;
const treeLinePattern = /^( {3,})([✓×↓□]) (.*)$/;
const durationPattern = / \d+(?:\.\d+)?m?s$/;

export function parseVitest(output: string): TestCounts {
  const lines = toLines(output);
  const start = lastIndexMatching(lines, vitestFilesPattern);
  if (start < 0)
    return lines.some((line) => noTestsPattern.test(line)) ? counts(0, 0, 0) : unparsed();

  let tests = new Map<string, number>();
  let errors = 0;
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') break;
    const testsMatch = testsPattern.exec(line);
    if (testsMatch !== null) {
      tests = countParts((testsMatch[1] ?? '').replace(/\(\d+\)\s*$/, ''), /\|/);
    }
    errors += num(errorsPattern.exec(line)?.[1]);
  }
  const before = lines.slice(0, start);
  const suitesIndex = lastIndexMatching(before, failedSuitesPattern);
  const failedSuites = num(failedSuitesPattern.exec(lines[suitesIndex] ?? '')?.[1]);
  const summary = counts(
    get(tests, 'passed'),
    get(tests, 'failed') + failedSuites + errors,
    get(tests, 'skipped', 'todo'),
  );
  const extra: TestCase[] = [
    ...(suitesIndex < 0 ? [] : failedSuiteNames(before.slice(suitesIndex + 1))),
    ...Array.from({ length: errors }, () => ({
      id: '(unhandled error)',
      status: 'failed' as const,
    })),
  ];
  const verbose = verboseTests(before);
  if (verbose.length > 0) return withTests(summary, [...verbose, ...extra]);
  return withTests(summary, [...(defaultTreeTests(before) ?? []), ...extra]);
}

function failedSuiteNames(lines: readonly string[]): TestCase[] {
  const names: TestCase[] = [];
  for (const line of lines) {
    if (sectionPattern.test(line)) break;
    const name = failedSuitePattern.exec(line)?.[1];
    if (name !== undefined) names.push({ id: name, status: 'failed' });
  }
  return names;
}

function verboseTests(lines: readonly string[]): TestCase[] {
  const tests: TestCase[] = [];
  for (const line of lines) {
    if (fileLinePattern.test(line)) continue;
    const match = verboseLinePattern.exec(line);
    if (match === null) continue;
    tests.push(testCase(match[1] ?? '', match[2] ?? ''));
  }
  return tests;
}

/** The default reporter's per-file lists, or null when some test's describe path is not shown. */
function defaultTreeTests(lines: readonly string[]): TestCase[] | null {
  const tests: TestCase[] = [];
  let file: string | null = null;
  for (const line of lines) {
    const fileLine = fileLinePattern.exec(line);
    if (fileLine !== null) {
      file = fileLine[1] ?? '';
      continue;
    }
    const tree = file === null ? null : treeLinePattern.exec(line);
    if (tree === null) {
      if (line.trim() === '' || !line.startsWith('   ')) file = null;
      continue;
    }
    if ((tree[1] ?? '').length !== 3) return null;
    tests.push(testCase(tree[2] ?? '', `${file ?? ''} > ${tree[3] ?? ''}`));
  }
  return tests;
}

function testCase(symbol: string, title: string): TestCase {
  const status: TestStatus = symbol === '✓' ? 'passed' : symbol === '×' ? 'failed' : 'skipped';
  // Only tests that ran have a duration; a skipped test's title keeps a trailing `5s` of its own.
  return { id: status === 'skipped' ? title : title.replace(durationPattern, ''), status };
}
