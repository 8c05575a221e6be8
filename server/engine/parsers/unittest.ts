// Python unittest (and runners built on it, e.g. Django's): `Ran N tests in 0.001s`, a blank line,
// then `OK`, `OK (skipped=1)`, `FAILED (failures=2, errors=1, skipped=1, expected failures=1,
// unexpected successes=1)` or, from Python 3.12, `NO TESTS RAN`. Only a `Ran` line followed by such
// a status line counts, and the last one wins: a test printing `Ran 40 tests` cannot pose as the
// summary without also being the final pair.
//
// Decisions:
// - errors count as failed; so do unexpected successes, because unittest reports the run FAILED
//   for them. Expected failures count as skipped (consistent with pytest's xfail).
// - `failures` counts failing subtests, so it can exceed the number of test methods; passed is
//   what is left of N and never goes below 0.
import { counts, unparsed, type TestCounts } from './types';
import { num, toLines } from './text';

export const unittestRanPattern = /^Ran (\d+) tests? in \d+(?:\.\d+)?s$/;
const statusPattern = /^(OK|FAILED|NO TESTS RAN)(?: \((.*)\))?$/;

export function parseUnittest(output: string): TestCounts {
  const lines = toLines(output);
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const ran = unittestRanPattern.exec(lines[index] ?? '');
    if (ran === null) continue;
    const status = statusPattern.exec(nextNonBlank(lines, index + 1));
    if (status === null) continue;
    const details = new Map<string, number>();
    for (const item of (status[2] ?? '').split(',')) {
      const [key, value] = item.split('=');
      if (key !== undefined && value !== undefined) details.set(key.trim(), num(value.trim()));
    }
    const detail = (key: string): number => details.get(key) ?? 0;
    const failed = detail('failures') + detail('errors') + detail('unexpected successes');
    const skipped = detail('skipped') + detail('expected failures');
    return counts(Math.max(0, num(ran[1]) - failed - skipped), failed, skipped);
  }
  return unparsed();
}

function nextNonBlank(lines: readonly string[], from: number): string {
  for (let index = from; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (line.trim() !== '') return line;
  }
  return '';
}
