// `go test -v` text: `=== RUN   X`, then `--- PASS: X (0.00s)` / `--- FAIL:` / `--- SKIP:` at the
// start of a line (indented four spaces per subtest level), and a package line when the package
// is done: `PASS` or `FAIL`, then `ok  	pkg	0.002s` or `FAIL	pkg	0.003s`. go prints each package's
// output in one piece, so the results before a package line belong to that package. A result
// counts only for a test that had its `=== RUN` line in the same piece, and an `ok` line only after
// go's own `PASS` line (or `-cover`'s `coverage: …` line after it): a test printing `--- PASS: X` or `ok  	pkg` itself cannot add a test or end
// a package. `FAIL	pkg [build failed]` / `[setup failed]` (printed among the other packages'
// output, from stderr) and `?   	pkg	[no test files]` end nothing.
//
// Without -v go prints no RUN lines and no passes: only failures, and the output of failing
// packages. That names too few tests to compare runs by, so it is `parsed: false`, except for what
// it does say completely: a package that did not build (a build failure), or packages that have no
// tests at all (zero tests).
import { GoRun, tallyGo, type Outcome } from './go-results';
import { buildFailure, counts, unparsed, type TestCounts } from './types';
import { isCutTail, toLines } from './text';

export const goRunPattern = /^=== RUN\s+(\S+)/;
export const goResultPattern = /^\s*--- (PASS|FAIL|SKIP): (\S+) \(\d+(?:\.\d+)?s\)$/;
export const goOkPattern = /^ok\s+(\S+)\s+(?:\d+(?:\.\d+)?s|\(cached\))/;
export const goFailPattern = /^FAIL\s+(\S+)\s+(?:\d+(?:\.\d+)?s|\[(?:build|setup) failed\])/;
export const goNoTestFilesPattern = /^\?\s+(\S+)\s+\[no test files\]$/;
export const buildFailedPattern = /^FAIL\s+(\S+) \[(?:build|setup) failed\]$/;
const noTestsToRunPattern = /^ok\s+\S+\s+(?:\d+(?:\.\d+)?s|\(cached\))\s+\[no tests to run\]/;
const failTimePattern = /^FAIL\s+(\S+)\s+\d+(?:\.\d+)?s/;

export function parseGoText(output: string): TestCounts {
  const lines = toLines(output).filter((line) => line.trim() !== '');
  if (!lines.some((line) => goRunPattern.test(line))) return parsePlain(lines);

  const run = new GoRun();
  let started = new Set<string>();
  let results: [string, Outcome][] = [];
  let previous = '';
  for (const line of lines) {
    const before = previous;
    previous = line;
    const runName = goRunPattern.exec(line)?.[1];
    if (runName !== undefined) started.add(runName);
    const result = goResultPattern.exec(line);
    if (result !== null && started.has(result[2] ?? '')) {
      results.push([result[2] ?? '', (result[1] ?? '').toLowerCase() as Outcome]);
    }
    const built = buildFailedPattern.exec(line)?.[1];
    if (built !== undefined) {
      const pkg = run.get(built);
      pkg.failed = true;
      pkg.buildFailed = true;
      continue;
    }
    const ok = closesPackage(before) ? goOkPattern.exec(line)?.[1] : undefined;
    const failed = failTimePattern.exec(line)?.[1];
    const name = ok ?? failed;
    if (name === undefined) continue;
    const pkg = run.get(name);
    for (const test of started) pkg.start(test);
    for (const [test, outcome] of results) pkg.report(test, outcome);
    if (failed !== undefined) pkg.failed = true;
    started = new Set();
    results = [];
  }
  // A piece without its package line: the output ends inside a package (killed, or cut).
  if (started.size > 0) {
    const pkg = run.get('');
    for (const [test, outcome] of results) {
      pkg.start(test);
      pkg.report(test, outcome);
    }
  }
  const result = tallyGo(run);
  return isCutTail(output) ? { ...result, tests: [] } : result;
}

/** go's own line before `ok`: `PASS`, or the coverage figure that `-cover` prints after it. */
function closesPackage(previous: string): boolean {
  return previous === 'PASS' || previous.startsWith('coverage: ');
}

function parsePlain(lines: readonly string[]): TestCounts {
  if (lines.some((line) => buildFailedPattern.test(line))) return buildFailure();
  const packageLines = lines.filter(
    (line) => goOkPattern.test(line) || goFailPattern.test(line) || goNoTestFilesPattern.test(line),
  );
  const noTests = (line: string): boolean =>
    goNoTestFilesPattern.test(line) || noTestsToRunPattern.test(line);
  return packageLines.length > 0 && packageLines.every(noTests) ? counts(0, 0, 0) : unparsed();
}
