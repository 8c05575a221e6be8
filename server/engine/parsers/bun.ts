// bun test: the closing block
//    3 pass
//    1 skip
//    1 todo
//    2 fail
//    3 expect() calls
//   Ran 7 tests across 2 files. [58.00ms]
// read upwards from the last `Ran N tests across M files.` line. Tests can log lines such as
// ` 99 pass`, but not the `Ran …` line under them, so only the block right above it counts.
//
// Decisions: todo counts as skipped. A file that fails to load is reported by bun as a failed test
// (plus `1 error`), so the error line is not added again. `No tests found!` is `parsed: true`, 0/0/0.
//
// Test ids: bun prints each test as `(pass) suite > name [0.15ms]` (`(fail)`, `(skip)`, `(todo)`)
// under its file's `file.test.ts:` header; the id is `file.test.ts > suite > name`. A file that
// fails to load (`# Unhandled error between tests` under its header) is the failed test bun
// counts for it, named by its file.
import { withTests } from './test-list';
import { counts, unparsed, type TestCase, type TestCounts, type TestStatus } from './types';
import { lastIndexMatching, num, toLines } from './text';

export const bunRanPattern = /^Ran \d+ tests? across \d+ files?\./;
const itemPattern = /^\s*(\d+) (pass|fail|skip|todo|error|errors|snapshots?|expect\(\) calls)\b/;
const noTestsPattern = /^No tests found!?$/;
const fileHeaderPattern = /^(\S.*\.\w+):$/;
const testLinePattern = /^\((pass|fail|skip|todo)\) (.*?)(?: \[\d+(?:\.\d+)?m?s\])?$/;
const loadErrorPattern = /^# Unhandled error between tests$/;
const statuses: Readonly<Record<string, TestStatus>> = {
  pass: 'passed',
  fail: 'failed',
  skip: 'skipped',
  todo: 'skipped',
};

export function parseBun(output: string): TestCounts {
  const lines = toLines(output);
  const ran = lastIndexMatching(lines, bunRanPattern);
  if (ran < 0)
    return lines.some((line) => noTestsPattern.test(line)) ? counts(0, 0, 0) : unparsed();

  const values = new Map<string, number>();
  let block = ran;
  for (let index = ran - 1; index >= 0; index -= 1) {
    const match = itemPattern.exec(lines[index] ?? '');
    if (match === null) break;
    values.set(match[2] ?? '', num(match[1]));
    block = index;
  }
  const value = (key: string): number => values.get(key) ?? 0;
  const summary = counts(value('pass'), value('fail'), value('skip') + value('todo'));
  return withTests(summary, namedTests(lines.slice(0, block)));
}

function namedTests(lines: readonly string[]): TestCase[] {
  const tests: TestCase[] = [];
  let file: string | null = null;
  for (const line of lines) {
    const header = fileHeaderPattern.exec(line);
    if (header !== null) {
      file = header[1] ?? '';
      continue;
    }
    if (file === null) continue;
    if (loadErrorPattern.test(line)) {
      tests.push({ id: file, status: 'failed' });
      continue;
    }
    const test = testLinePattern.exec(line);
    if (test !== null) {
      tests.push({ id: `${file} > ${test[2] ?? ''}`, status: statuses[test[1] ?? ''] ?? 'failed' });
    }
  }
  return tests;
}
