// Mocha (spec, dot, list, … reporters): the epilogue `  2 passing (6ms)`, then `  2 pending` and
// `  2 failing` on the lines right after it. Failure details follow the epilogue, so the block is
// read from its `passing` line and stops at the first line that is not part of it; the last
// `passing` line wins over anything a test logged earlier. Pending (`it.skip`, `it('…')` without
// a body) counts as skipped.
//
// `--reporter tap` output has no epilogue and is read as TAP. An exception while loading the test
// files (`Exception during run`) prints no counts: `parsed: false`.
//
// Test ids come from the spec reporter (the default): suites are plain lines, two spaces deeper
// per level, and tests `✔ title`, `N) title` (failed, hooks included) or `- title` (pending),
// with ` (75ms)` after slow ones. The id joins the titles, `cart › discounts › applies a coupon`;
// mocha prints no file names, so equal titles in two files become `title #2`. A line a test logs
// can look like a suite title; mocha never prints a suite without printing a child under it right
// after, so a title directly followed by another title at the same depth is not a suite. Other
// reporters (dot: `․`, `!`, `,`) name no tests.
import { parseTap, tapPlanPattern } from './tap';
import { withTests } from './test-list';
import { counts, type TestCase, type TestCounts, type TestStatus } from './types';
import { lastIndexMatching, num, toLines } from './text';

export const mochaPassingPattern = /^\s*(\d+) passing \(\d+(?:ms|s|m)\)$/;
const pendingPattern = /^\s*(\d+) pending$/;
const failingPattern = /^\s*(\d+) failing$/;
const testLinePattern = /^( +)(?:(✔|✓|√)|(\d+)\)|(-)) (.*?)(?: \(\d+m?s\))?$/;
const titlePattern = /^( +)(\S.*)$/;

export function parseMocha(output: string): TestCounts {
  const lines = toLines(output);
  const index = lastIndexMatching(lines, mochaPassingPattern);
  // Under the TAP reporter a test's `  99 passing (1ms)` log line is the only epilogue-like line,
  // and it comes before the TAP plan that closes the real output.
  if (index < 0 || lastIndexMatching(lines, tapPlanPattern) > index) return parseTap(output);
  let skipped = 0;
  let failed = 0;
  for (const line of lines.slice(index + 1)) {
    const pending = pendingPattern.exec(line);
    const failing = failingPattern.exec(line);
    if (pending !== null) skipped = num(pending[1]);
    else if (failing !== null) failed = num(failing[1]);
    else break;
  }
  const summary = counts(num(mochaPassingPattern.exec(lines[index] ?? '')?.[1]), failed, skipped);
  return withTests(summary, specTests(lines.slice(0, index)));
}

function specTests(lines: readonly string[]): TestCase[] {
  const tests: TestCase[] = [];
  // Suite titles by depth; `open` is whether the deepest one has had a child yet.
  let suites: string[] = [];
  let open = true;
  for (const line of lines) {
    const test = testLinePattern.exec(line);
    if (test !== null) {
      const depth = depthOf(test[1] ?? '');
      const status: TestStatus =
        test[2] !== undefined ? 'passed' : test[3] !== undefined ? 'failed' : 'skipped';
      tests.push({ id: [...suites.slice(0, depth), test[5] ?? ''].join(' › '), status });
      suites = suites.slice(0, depth);
      open = true;
      continue;
    }
    const title = titlePattern.exec(line);
    if (title === null) continue;
    const depth = depthOf(title[1] ?? '');
    if (!open && depth === suites.length - 1) continue;
    suites = [...suites.slice(0, depth), title[2] ?? ''];
    open = false;
  }
  return tests;
}

/** Mocha's spec reporter indents the root's children by two spaces and each level by two more. */
function depthOf(indent: string): number {
  return Math.max(0, Math.floor((indent.length - 2) / 2));
}
