// cargo test: libtest prints `running N tests` before each test binary (unit, each integration
// file, doc tests) and one `test result:` line after it; the run's totals are the sum of all of them.
// `ignored` counts as skipped; `filtered out` tests were never selected and are not counted.
//
// A test's own output can contain lines of exactly that format: captured output of a failing test
// is printed before its binary's summary, and `--nocapture` output is interleaved. A real summary
// always comes last in its segment and its counts add up to the segment's `running N tests`, so a
// summary line is attached to the innermost open segment whose N equals its total, later lines
// replace earlier ones, and a segment opened (by a printed `running …` line) inside another one is
// dropped when the outer segment's real summary arrives.
//
// A compile error prints `error: could not compile …` and no summary at all: that is
// `parsed: false`, not 0/0. cargo says nothing about tests there, and a 0-failure result would
// rank a hypothesis that does not build above one with a single failing test.
import { counts, unparsed, type TestCounts } from './types';
import { num, toLines } from './text';

const runningPattern = /^running (\d+) tests?$/;
export const cargoResultPattern =
  /^test result: (?:ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; \d+ filtered out(?:; finished in \d+(?:\.\d+)?s)?$/;

interface Tally {
  passed: number;
  failed: number;
  ignored: number;
}

interface Segment {
  /** `running N tests`; null for a summary whose header was cut off the captured tail. */
  expected: number | null;
  result: Tally | null;
}

export function parseCargo(output: string): TestCounts {
  const stack: Segment[] = [];
  const finished: Tally[] = [];
  const settle = (): void => {
    for (const segment of stack) if (segment.result !== null) finished.push(segment.result);
  };

  for (const line of toLines(output)) {
    const running = runningPattern.exec(line);
    if (running !== null) {
      // A new binary starts: everything that already has its summary is done.
      settle();
      const open = stack.filter((segment) => segment.result === null && segment.expected !== null);
      stack.length = 0;
      stack.push(...open, { expected: num(running[1]), result: null });
      continue;
    }
    const result = cargoResultPattern.exec(line);
    if (result === null) continue;
    const tally = { passed: num(result[1]), failed: num(result[2]), ignored: num(result[3]) };
    const total = tally.passed + tally.failed + tally.ignored + num(result[4]);
    const owner = findLastIndex(stack, (segment) => segment.expected === total);
    if (owner >= 0) {
      stack.length = owner + 1;
      (stack[owner] as Segment).result = tally;
    } else if (stack.length === 0 || stack.at(-1)?.expected === null) {
      stack.length = 0;
      stack.push({ expected: null, result: tally });
    }
  }
  settle();

  if (finished.length === 0) return unparsed();
  return counts(
    finished.reduce((sum, tally) => sum + tally.passed, 0),
    finished.reduce((sum, tally) => sum + tally.failed, 0),
    finished.reduce((sum, tally) => sum + tally.ignored, 0),
  );
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index -= 1) {
    if (predicate(items[index] as T)) return index;
  }
  return -1;
}
