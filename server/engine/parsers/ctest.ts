// CTest: `60% tests passed, 2 tests failed out of 5`, then the lists `The following tests did not
// run:` (entries `4 - name (Skipped)` / `(Disabled)`) and `The following tests FAILED:`.
// CTest's own arithmetic counts a skipped test as passed and leaves disabled tests out of the
// total, so: failed = ctest's failed (this includes `Not Run` tests whose executable is missing,
// which ctest itself counts as failed), skipped = every entry of the did-not-run list,
// passed = total − failed − skipped entries that are inside the total.
// `--output-on-failure` prints test output before the summary; the last summary line wins.
// `No tests were found!!!`, and `No test configuration file found!` (ctest run outside a build
// tree), are `parsed: true` with 0/0/0.
//
// Test ids are the test names, from the result lines `1/5 Test #1: parse_units ....   Passed  0.00
// sec` (`***Failed`, `***Skipped`, `***Not Run (Disabled)`, `***Not Run`, `***Timeout`,
// `***Exception: …`), read with the same arithmetic: Skipped and Disabled are skipped, Passed is
// passed, anything else failed.
import { withTests } from './test-list';
import { counts, unparsed, type TestCase, type TestCounts } from './types';
import { lastIndexMatching, num, toLines } from './text';

export const ctestSummaryPattern = /^\d+% tests passed, (\d+) tests? failed out of (\d+)$/;
export const ctestNoTestsPattern = /^No tests were found!!!$|^No test configuration file found!$/;
const resultPattern = /^\s*\d+\/\d+ Test\s+#\d+: (.+?) (?:\.+ *| +)(\S.*?)\s+\d+(?:\.\d+)? sec$/;
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
  const summary = counts(Math.max(0, total - failed - skipped), failed, skipped + disabled);
  return withTests(summary, namedTests(lines.slice(0, index)));
}

function namedTests(lines: readonly string[]): TestCase[] {
  const tests: TestCase[] = [];
  for (const line of lines) {
    const match = resultPattern.exec(line);
    if (match === null) continue;
    const result = match[2] ?? '';
    const status = /^Passed\b/.test(result)
      ? 'passed'
      : /^\*\*\*(?:Skipped|Not Run \(Disabled\))/.test(result)
        ? 'skipped'
        : 'failed';
    tests.push({ id: match[1] ?? '', status });
  }
  return tests;
}
