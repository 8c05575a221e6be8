// Jest: the summary block `Test Suites: …` / `Tests: 2 failed, 1 skipped, 1 todo, 3 passed, 7 total`.
// Jest indents everything a test logs (`console.log` blocks, error messages), so a `Tests:` line at
// the start of a line right after `Test Suites:` is jest's own; the last such pair wins.
//
// Decisions:
// - todo counts as skipped.
// - A test file that cannot run (syntax error, failing import) produces no tests but jest reports
//   the suite as failed and prints `● Test suite failed to run`; each such suite counts as one
//   failure (at most as many as `Test Suites: N failed`), so a broken file is not a silent 0.
// - `No tests found, exiting with code N` is `parsed: true` with 0/0/0.
//
// Test ids come from the `--verbose` tree (jest's default for a single test file) under each
// `PASS`/`FAIL file` header: `✓ name (2 ms)`, `✕`, `○ skipped name`, `✎ todo name`, with describe
// blocks as plain lines, two spaces deeper per level. The id is the file and the titles joined as
// jest joins them, `test/cart.test.js › cart › discounts › applies a coupon` (a leading `./`,
// printed by older versions, is dropped); a suite that failed to run is its file.
import { withTests } from './test-list';
import { counts, unparsed, type TestCase, type TestCounts, type TestStatus } from './types';
import { countParts, get, toLines } from './text';

export const jestSuitesPattern = /^Test Suites: (.*)$/;
export const jestTestsPattern = /^Tests:\s+(.*\d+ total)$/;
const suiteErrorPattern = /^\s*● Test suite failed to run$/;
const noTestsPattern = /^No tests found, exiting with code \d+$/;
const fileHeaderPattern = /^(?:PASS|FAIL) +(\S.*?)(?: \(\d+(?:\.\d+)? m?s\))?$/;
const testLinePattern = /^( *)(✓|✕|○|✎|√|×) (.*?)(?: \(\d+(?:\.\d+)? m?s\))?$/;
const describeLinePattern = /^( +)(\S.*)$/;

export function parseJest(output: string): TestCounts {
  const lines = toLines(output);
  for (let index = lines.length - 1; index > 0; index -= 1) {
    const tests = jestTestsPattern.exec(lines[index] ?? '');
    const suites = jestSuitesPattern.exec(lines[index - 1] ?? '');
    if (tests === null || suites === null) continue;
    const parts = countParts(tests[1] ?? '', /,/);
    const failedSuites = get(countParts(suites[1] ?? '', /,/), 'failed');
    const { named, broken } = namedTests(lines.slice(0, index));
    const summary = counts(
      get(parts, 'passed'),
      get(parts, 'failed') + Math.min(broken.length, failedSuites),
      get(parts, 'skipped', 'todo'),
    );
    return withTests(summary, [...named, ...broken]);
  }
  return lines.some((line) => noTestsPattern.test(line)) ? counts(0, 0, 0) : unparsed();
}

function namedTests(lines: readonly string[]): { named: TestCase[]; broken: TestCase[] } {
  const named: TestCase[] = [];
  const broken: TestCase[] = [];
  let file: string | null = null;
  let inTree = false;
  let describes: string[] = [];
  for (const line of lines) {
    const header = fileHeaderPattern.exec(line);
    if (header !== null) {
      file = (header[1] ?? '').replace(/^\.\//, '');
      inTree = true;
      describes = [];
      continue;
    }
    if (file === null) continue;
    if (suiteErrorPattern.test(line)) {
      broken.push({ id: file, status: 'failed' });
      inTree = false;
      continue;
    }
    if (!inTree) continue;
    if (line.trim() === '' || line.trimStart().startsWith('●')) {
      inTree = false;
      continue;
    }
    const test = testLinePattern.exec(line);
    if (test !== null) {
      const depth = Math.max(0, ((test[1] ?? '').length - 2) / 2);
      const [status, title] = statusAndTitle(test[2] ?? '', test[3] ?? '');
      named.push({ id: [file, ...describes.slice(0, depth), title].join(' › '), status });
      continue;
    }
    const describe = describeLinePattern.exec(line);
    if (describe !== null) {
      const depth = Math.max(0, ((describe[1] ?? '').length - 2) / 2);
      describes = [...describes.slice(0, depth), describe[2] ?? ''];
    }
  }
  return { named, broken };
}

function statusAndTitle(symbol: string, text: string): [TestStatus, string] {
  if (symbol === '✓' || symbol === '√') return ['passed', text];
  if (symbol === '✕' || symbol === '×') return ['failed', text];
  return ['skipped', text.replace(/^(?:skipped|todo) /, '')];
}
