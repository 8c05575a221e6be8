// Node's built-in test runner (`node --test`). Both reporters end with a summary block:
//   spec: `ℹ tests 6`, `ℹ suites 1`, `ℹ pass 2`, `ℹ fail 2`, `ℹ cancelled 0`, `ℹ skipped 1`, `ℹ todo 1`
//   tap:  `# tests 6`, `# suites 1`, `# pass 2`, … (the default when stdout is not a terminal)
// The block is read from the last `tests` line. What tests log is indented or, under TAP, turned
// into `# …` comments that come before the block, so the last block is the runner's.
//
// Decisions: cancelled tests (e.g. cut off by a failing parent or a timeout) count as failed; todo
// counts as skipped. A test file that does not even load is reported by node as one failed test,
// so it counts as one failure.
import { counts, unparsed, type TestCounts } from './types';
import { lastIndexMatching, num, toLines } from './text';

export const nodeSpecTestsPattern = /^ℹ tests (\d+)$/;
export const nodeTapTestsPattern = /^# tests (\d+)$/;
const specItemPattern = /^ℹ (\w+) (\d+(?:\.\d+)?)$/;
const tapItemPattern = /^# (\w+) (\d+(?:\.\d+)?)$/;

export function parseNode(output: string): TestCounts {
  const lines = toLines(output);
  const spec = lastIndexMatching(lines, nodeSpecTestsPattern);
  const tap = lastIndexMatching(lines, nodeTapTestsPattern);
  if (spec < 0 && tap < 0) return unparsed();
  const [start, item] = spec > tap ? [spec, specItemPattern] : [tap, tapItemPattern];

  const values = new Map<string, number>();
  for (const line of lines.slice(start)) {
    const match = item.exec(line);
    if (match === null) break;
    values.set(match[1] ?? '', num(match[2]));
  }
  const value = (key: string): number => values.get(key) ?? 0;
  return counts(
    value('pass'),
    value('fail') + value('cancelled'),
    value('skipped') + value('todo'),
  );
}
