// Mocha (spec, dot, list, … reporters): the epilogue `  2 passing (6ms)`, then `  2 pending` and
// `  2 failing` on the lines right after it. Failure details follow the epilogue, so the block is
// read from its `passing` line and stops at the first line that is not part of it; the last
// `passing` line wins over anything a test logged earlier. Pending (`it.skip`, `it('…')` without
// a body) counts as skipped.
//
// `--reporter tap` output has no epilogue and is read as TAP. An exception while loading the test
// files (`Exception during run`) prints no counts: `parsed: false`.
import { parseTap, tapPlanPattern } from './tap';
import { counts, type TestCounts } from './types';
import { lastIndexMatching, num, toLines } from './text';

export const mochaPassingPattern = /^\s*(\d+) passing \(\d+(?:ms|s|m)\)$/;
const pendingPattern = /^\s*(\d+) pending$/;
const failingPattern = /^\s*(\d+) failing$/;

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
  return counts(num(mochaPassingPattern.exec(lines[index] ?? '')?.[1]), failed, skipped);
}
