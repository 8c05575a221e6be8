// CTest: `60% tests passed, 2 tests failed out of 5`, then the lists `The following tests did not
// run:` (entries `4 - name (Skipped)` / `(Disabled)`) and `The following tests FAILED:`.
// CTest's own arithmetic counts a skipped test as passed and leaves disabled tests out of the
// total, so: failed = ctest's failed (this includes `Not Run` tests whose executable is missing,
// which ctest itself counts as failed), skipped = every entry of the did-not-run list,
// passed = total − failed − skipped entries that are inside the total.
// `--output-on-failure` prints test output before the summary; the last summary line wins.
// `No tests were found!!!` is `parsed: true` with 0/0/0.
import { counts, unparsed, type TestCounts } from './types';
import { lastIndexMatching, num, toLines } from './text';

export const ctestSummaryPattern = /^\d+% tests passed, (\d+) tests? failed out of (\d+)$/;
export const ctestNoTestsPattern = /^No tests were found!!!$/;
const didNotRunPattern = /^The following tests did not run:$/;
const didNotRunEntryPattern = /^\s+\d+ - .+ \((Skipped|Disabled)\)$/;

export function parseCtest(output: string): TestCounts {
  const lines = toLines(output);
  const index = lastIndexMatching(lines, ctestSummaryPattern);
  if (index < 0)
    return lines.some((line) => ctestNoTestsPattern.test(line)) ? counts(0, 0, 0) : unparsed();
  const match = ctestSummaryPattern.exec(lines[index] ?? '');
  const failed = num(match?.[1]);
  const total = num(match?.[2]);

  let skipped = 0;
  let disabled = 0;
  const list = lines.findIndex((line, at) => at > index && didNotRunPattern.test(line));
  for (const line of list < 0 ? [] : lines.slice(list + 1)) {
    const entry = didNotRunEntryPattern.exec(line);
    if (entry === null) break;
    if (entry[1] === 'Disabled') disabled += 1;
    else skipped += 1;
  }
  return counts(Math.max(0, total - failed - skipped), failed, skipped + disabled);
}
