// `go test -v` text: `=== RUN   X`, then `--- PASS: X (0.00s)` / `--- FAIL:` / `--- SKIP:` at the
// start of a line (indented four spaces per subtest level), and a package line when the package
// is done: `ok  	pkg	0.002s`, `FAIL	pkg	0.003s`, `FAIL	pkg [build failed]`,
// `?   	pkg	[no test files]`. go prints each package's output in one piece, so the results
// before a package line belong to that package. A result counts only for a test that had its
// `=== RUN` line: a test printing `--- PASS: X` itself cannot add a test.
//
// Without -v go prints no RUN lines, no passes and no skips: only failures, and the output of
// failing packages. Then failures count as printed and each passing package counts as one passed
// unit, because that is all go says. A passing package's output is hidden, so its `ok` line
// directly follows the previous package line; an `ok` line anywhere else was printed by a test.
import { tallyGo, type GoResult, type Outcome } from './go-results';
import { counts, unparsed, type TestCounts } from './types';
import { toLines } from './text';

export const goRunPattern = /^=== RUN\s+(\S+)/;
export const goResultPattern = /^\s*--- (PASS|FAIL|SKIP): (\S+) \(\d+(?:\.\d+)?s\)$/;
export const goOkPattern = /^ok\s+(\S+)\s+(?:\d+(?:\.\d+)?s|\(cached\))/;
export const goFailPattern = /^FAIL\s+(\S+)\s+(?:\d+(?:\.\d+)?s|\[(?:build|setup) failed\])/;
export const goNoTestFilesPattern = /^\?\s+(\S+)\s+\[no test files\]$/;

export function parseGoText(output: string): TestCounts {
  const lines = toLines(output).filter((line) => line.trim() !== '');
  const verbose = lines.some((line) => goRunPattern.test(line));
  const results: GoResult[] = [];
  const failedPackages = new Set<string>();
  let chunk: { test: string; outcome: Outcome }[] = [];
  const started = new Set<string>();
  let okPackages = 0;
  let sawPackage = false;
  let previousWasPackage = true;

  for (const line of lines) {
    const run = goRunPattern.exec(line)?.[1];
    if (run !== undefined) started.add(run);
    const result = goResultPattern.exec(line);
    const outcome = result?.[1]?.toLowerCase() as Outcome | undefined;
    const test = result?.[2];
    if (outcome !== undefined && test !== undefined) {
      if (verbose ? started.has(test) : outcome === 'fail') chunk.push({ test, outcome });
    }
    const ok = goOkPattern.exec(line)?.[1];
    const fail = goFailPattern.exec(line)?.[1];
    const pkg = ok ?? fail ?? goNoTestFilesPattern.exec(line)?.[1];
    if (ok !== undefined && !verbose && !previousWasPackage) continue;
    previousWasPackage = pkg !== undefined;
    if (pkg === undefined) continue;
    if (ok !== undefined) okPackages += 1;
    if (fail !== undefined) failedPackages.add(fail);
    results.push(...chunk.map((entry) => ({ pkg, ...entry })));
    chunk = [];
    sawPackage = true;
  }
  results.push(...chunk.map((entry) => ({ pkg: '', ...entry })));
  if (!sawPackage && results.length === 0) return unparsed();
  const tally = tallyGo(results, failedPackages);
  return verbose ? tally : counts(tally.passed + okPackages, tally.failed, tally.skipped);
}
