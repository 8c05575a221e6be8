// cargo nextest: one `Summary [ 1.234s] N tests run: …` line at the end of the run, e.g.
// `8/10 tests run: 5 passed (1 slow, 1 flaky), 2 failed, 1 exec failed, 1 timed out, 2 skipped`.
// Failed, exec failed and timed out are failures; flaky tests passed on a retry and count as passed
// (the parenthesised details are refinements of a count, never extra tests). Skipped includes
// tests filtered out and `#[ignore]`d ones: nextest does not tell them apart. Tests not run because
// the run was cancelled appear in no count.
//
// Captured output of failing tests (printed before the summary) may hold `test result:` lines and
// even a copy of a summary line; the last summary line is nextest's own.
import { counts, unparsed, type TestCounts } from './types';
import { countParts, get, lastIndexMatching, toLines } from './text';

export const nextestSummaryPattern =
  /^\s*Summary \[\s*\d+(?:\.\d+)?s\] (?:\d+\/)?\d+ tests? run: (.*)$/;

export function parseNextest(output: string): TestCounts {
  const lines = toLines(output);
  const index = lastIndexMatching(lines, nextestSummaryPattern);
  if (index < 0) return unparsed();
  const match = nextestSummaryPattern.exec(lines[index] ?? '');
  const detail = (match?.[1] ?? '').split(';')[0] ?? '';
  const parts = countParts(detail.replace(/\([^)]*\)/g, ''), /,/);
  return counts(
    get(parts, 'passed'),
    get(parts, 'failed', 'exec failed', 'timed out'),
    get(parts, 'skipped'),
  );
}
