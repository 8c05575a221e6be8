// Node's built-in test runner (`node --test`). Both reporters end with a summary block:
//   spec: `ℹ tests 6`, `ℹ suites 1`, `ℹ pass 2`, `ℹ fail 2`, `ℹ cancelled 0`, `ℹ skipped 1`, `ℹ todo 1`
//   tap:  `# tests 6`, `# suites 1`, `# pass 2`, … (the default when stdout is not a terminal)
// The block is read from the last `tests` line. What tests log is indented or, under TAP, turned
// into `# …` comments that come before the block, so the last block is the runner's.
//
// Decisions: cancelled tests (e.g. cut off by a failing parent or a timeout) count as failed; todo
// counts as skipped. A test file that does not even load is reported by node as one failed test,
// so it counts as one failure.
//
// The dot reporter prints no summary (node 20): one `.` per passing and `X` per failing test,
// wrapped at the terminal width, then `Failed tests:`. node emits those for suites (`describe`) and
// for skipped and todo tests as well, and the dots cannot tell them apart, so every `.` counts as
// passed and every `X` as failed; names are not printed for passes, so there are no ids.
//
// Test ids join the titles of the test and its suites or parent tests: `cart › discounts ›
// applies a coupon` (node prints no file names; equal titles become `title #2`). A file that fails
// to load is a test named by its absolute path, which depends on where the tree is checked out:
// its id is the file name.
// - TAP: `# Subtest: title` opens a level (four spaces deeper per level), the test point
//   `ok 1 - title # SKIP` closes it; `type: 'suite'` in its YAML block marks a describe, which node
//   does not count as a test.
// - spec: `✔ title (0.1ms)`, `✖`, `﹣ title (…) # SKIP`, `✔ title (…) # TODO`, two spaces deeper per
//   level; a test with children is printed as `▶ title` before them and closed by a result line at
//   its own depth. That line looks the same for a describe block and for a test with subtests, so
//   the names are kept only when the summary's `suites` count says which they all are.
import { withTests } from './test-list';
import { counts, unparsed, type TestCase, type TestCounts, type TestStatus } from './types';
import { lastIndexMatching, num, toLines } from './text';

export const nodeSpecTestsPattern = /^ℹ tests (\d+)$/;
export const nodeTapTestsPattern = /^# tests (\d+)$/;
const specItemPattern = /^ℹ (\w+) (\d+(?:\.\d+)?)$/;
const tapItemPattern = /^# (\w+) (\d+(?:\.\d+)?)$/;
const dotsPattern = /^[.X]+$/;
const subtestPattern = /^( *)# Subtest: (.*)$/;
const pointPattern = /^( *)(not )?ok \d+(?: - (.*?))?(?: # (SKIP|TODO)\b.*)?$/i;
// The duration is always printed; a ` # …` after it marks a skip or todo (with its reason).
const specResultPattern = /^( *)(✔|✖|﹣) (.*) \(\d+(?:\.\d+)?ms\)( # .*)?$/u;
const specGroupPattern = /^( *)▶ (.*)$/u;
const absolutePathPattern = /^(?:file:\/\/)?(?:\/|[A-Za-z]:[\\/]).*[\\/]([^\\/]+)$/;

export function parseNode(output: string): TestCounts {
  const lines = toLines(output);
  const spec = lastIndexMatching(lines, nodeSpecTestsPattern);
  const tap = lastIndexMatching(lines, nodeTapTestsPattern);
  if (spec < 0 && tap < 0) return parseDots(lines);
  const useSpec = spec > tap;
  const start = useSpec ? spec : tap;
  const item = useSpec ? specItemPattern : tapItemPattern;

  const values = new Map<string, number>();
  for (const line of lines.slice(start)) {
    const match = item.exec(line);
    if (match === null) break;
    values.set(match[1] ?? '', num(match[2]));
  }
  const value = (key: string): number => values.get(key) ?? 0;
  const summary = counts(
    value('pass'),
    value('fail') + value('cancelled'),
    value('skipped') + value('todo'),
  );
  const before = lines.slice(0, start);
  if (!useSpec) return withTests(summary, tapTests(before));
  const { leaves, groups } = specTests(before);
  const suites = value('suites');
  if (suites === groups.length) return withTests(summary, leaves);
  if (suites === 0) return withTests(summary, [...leaves, ...groups]);
  return summary;
}

function parseDots(lines: readonly string[]): TestCounts {
  const end = lines.indexOf('Failed tests:');
  let last = (end < 0 ? lines.length : end) - 1;
  while (last >= 0 && (lines[last] ?? '').trim() === '') last -= 1;
  let first = last;
  while (first >= 0 && dotsPattern.test(lines[first] ?? '')) first -= 1;
  return first === last ? unparsed() : dotCounts(lines.slice(first + 1, last + 1));
}

function dotCounts(rows: readonly string[]): TestCounts {
  let passed = 0;
  let failed = 0;
  for (const row of rows) {
    for (const mark of row) {
      if (mark === '.') passed += 1;
      else failed += 1;
    }
  }
  return counts(passed, failed, 0);
}

function tapTests(lines: readonly string[]): TestCase[] {
  const tests: TestCase[] = [];
  const titles: string[] = [];
  // The point just read, until its YAML block says whether it is a suite.
  let last: { test: TestCase; indent: number } | null = null;
  for (const line of lines) {
    const subtest = subtestPattern.exec(line);
    if (subtest !== null) {
      const depth = Math.floor((subtest[1] ?? '').length / 4);
      titles.length = depth;
      titles.push(subtest[2] ?? '');
      last = null;
      continue;
    }
    const point = pointPattern.exec(line);
    if (point !== null) {
      const depth = Math.floor((point[1] ?? '').length / 4);
      const title = point[3] ?? titles[depth] ?? '';
      const path = [...titles.slice(0, depth), title];
      titles.length = depth;
      const status: TestStatus =
        point[4] !== undefined ? 'skipped' : point[2] === undefined ? 'passed' : 'failed';
      const test = { id: idOf(path), status };
      tests.push(test);
      last = { test, indent: (point[1] ?? '').length };
      continue;
    }
    if (last !== null && line.startsWith(`${' '.repeat(last.indent + 2)}type: 'suite'`)) {
      tests.splice(tests.lastIndexOf(last.test), 1);
      last = null;
    }
  }
  return tests;
}

function specTests(lines: readonly string[]): { leaves: TestCase[]; groups: TestCase[] } {
  const leaves: TestCase[] = [];
  const groups: TestCase[] = [];
  const titles: string[] = [];
  // Titles of `▶` groups still open, by depth.
  const open: (string | undefined)[] = [];
  for (const line of lines) {
    if (line.startsWith('✖ failing tests:')) break;
    const group = specGroupPattern.exec(line);
    if (group !== null) {
      const depth = Math.floor((group[1] ?? '').length / 2);
      titles.length = depth;
      titles.push(group[2] ?? '');
      open.length = depth;
      open[depth] = group[2] ?? '';
      continue;
    }
    const result = specResultPattern.exec(line);
    if (result === null) continue;
    const depth = Math.floor((result[1] ?? '').length / 2);
    const title = result[3] ?? '';
    const status: TestStatus =
      result[4] !== undefined || result[2] === '﹣'
        ? 'skipped'
        : result[2] === '✔'
          ? 'passed'
          : 'failed';
    const test = { id: idOf([...titles.slice(0, depth), title]), status };
    if (open[depth] === title) {
      groups.push(test);
      open.length = depth;
    } else {
      leaves.push(test);
    }
    titles.length = depth;
  }
  return { leaves, groups };
}

function idOf(path: readonly string[]): string {
  const [first = '', ...rest] = path;
  const file = path.length === 1 ? absolutePathPattern.exec(first)?.[1] : undefined;
  return [file ?? first, ...rest].join(' › ');
}
