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
import { counts, unparsed, type TestCounts } from './types';
import { lastIndexMatching, num, toLines } from './text';

export const bunRanPattern = /^Ran \d+ tests? across \d+ files?\./;
const itemPattern = /^\s*(\d+) (pass|fail|skip|todo|error|errors|snapshots?|expect\(\) calls)\b/;
const noTestsPattern = /^No tests found!?$/;

export function parseBun(output: string): TestCounts {
  const lines = toLines(output);
  const ran = lastIndexMatching(lines, bunRanPattern);
  if (ran < 0)
    return lines.some((line) => noTestsPattern.test(line)) ? counts(0, 0, 0) : unparsed();

  const values = new Map<string, number>();
  for (let index = ran - 1; index >= 0; index -= 1) {
    const match = itemPattern.exec(lines[index] ?? '');
    if (match === null) break;
    values.set(match[2] ?? '', num(match[1]));
  }
  const value = (key: string): number => values.get(key) ?? 0;
  return counts(value('pass'), value('fail'), value('skip') + value('todo'));
}
