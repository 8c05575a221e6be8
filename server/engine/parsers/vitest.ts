// Vitest: the summary block at the end,
//    Test Files  1 failed | 1 passed (2)
//         Tests  2 failed | 3 passed | 1 skipped | 1 todo (7)
//        Errors  1 error
// A test can log a line that looks like ` Tests  99 passed (99)`, but not the `Test Files` line
// right above it: the last `Test Files` line starts the real block.
//
// Decisions:
// - todo counts as skipped.
// - A file that fails to load, or a describe block whose `beforeAll` throws, is listed under
//   `Failed Suites N`; each such suite counts as one failure (its tests, if any, are reported as
//   skipped). Unhandled errors (`Errors  N errors`) fail the run and count as failures too.
// - `No test files found` is `parsed: true` with 0/0/0.
import { counts, unparsed, type TestCounts } from './types';
import { countParts, get, lastIndexMatching, num, toLines } from './text';

export const vitestFilesPattern = /^\s*Test Files\s+(.*)$/;
const testsPattern = /^\s*Tests\s+(.*)$/;
const errorsPattern = /^\s*Errors\s+(\d+) errors?/;
const failedSuitesPattern = /^⎯+ Failed Suites (\d+) ⎯+$/;
const noTestsPattern = /^No test files found, exiting with code \d+$/;

export function parseVitest(output: string): TestCounts {
  const lines = toLines(output);
  const start = lastIndexMatching(lines, vitestFilesPattern);
  if (start < 0)
    return lines.some((line) => noTestsPattern.test(line)) ? counts(0, 0, 0) : unparsed();

  let tests = new Map<string, number>();
  let errors = 0;
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') break;
    const testsMatch = testsPattern.exec(line);
    if (testsMatch !== null) {
      tests = countParts((testsMatch[1] ?? '').replace(/\(\d+\)\s*$/, ''), /\|/);
    }
    errors += num(errorsPattern.exec(line)?.[1]);
  }
  const suitesIndex = lastIndexMatching(lines.slice(0, start), failedSuitesPattern);
  const failedSuites = num(failedSuitesPattern.exec(lines[suitesIndex] ?? '')?.[1]);
  return counts(
    get(tests, 'passed'),
    get(tests, 'failed') + failedSuites + errors,
    get(tests, 'skipped', 'todo'),
  );
}
