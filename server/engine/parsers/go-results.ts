// Shared arithmetic of the two go test formats (`-json` events and `-v` text), so that one run
// read either way gives the same tests and counts.
//
// Every test and subtest that reports a result counts, parents of subtests included, as
// `go test -json` reports them and gotestsum counts them: `TestTable` failing because its
// `TestTable/n=2` failed is two failed tests. Ids are `importpath.TestName/sub` (go has already
// replaced spaces in subtest names). With -count=N a test reports N times; the last report stands.
//
// Packages: a test that started but never reported, in a package that failed, is the one that hung
// or crashed the binary (-timeout, a panic in another goroutine): it failed. A package that failed
// with no failed or unfinished test at all (a panic in init or TestMain, os.Exit) counts as one
// failed test whose id is the import path, because go prints it as a FAIL result and a broken
// package next to green ones must not look like a clean run. A package that did not build
// (`[build failed]`, `[setup failed]`) makes the result `buildFailed`: its tests never ran, and it
// is not a failed test; the tests of the other packages still count.
import { listOnly } from './test-list';
import type { TestCase, TestCounts, TestStatus } from './types';

export type Outcome = 'pass' | 'fail' | 'skip';

export class GoPackage {
  /** Tests in the order they started (`=== RUN` / `run` events). */
  readonly started = new Set<string>();
  /** Results in the order first reported; a later report of the same test replaces its outcome. */
  readonly outcomes = new Map<string, Outcome>();
  failed = false;
  buildFailed = false;

  constructor(readonly name: string) {}

  start(test: string): void {
    this.started.add(test);
  }

  report(test: string, outcome: Outcome): void {
    this.outcomes.set(test, outcome);
  }
}

/** Packages by import path, created on first mention, in that order. */
export class GoRun {
  readonly packages = new Map<string, GoPackage>();

  get(name: string): GoPackage {
    let found = this.packages.get(name);
    if (found === undefined) {
      found = new GoPackage(name);
      this.packages.set(name, found);
    }
    return found;
  }
}

const statuses: Readonly<Record<Outcome, TestStatus>> = {
  pass: 'passed',
  fail: 'failed',
  skip: 'skipped',
};

export function tallyGo(run: GoRun): TestCounts {
  const tests: TestCase[] = [];
  let buildFailed = false;
  for (const pkg of run.packages.values()) {
    const id = (test: string): string => (pkg.name === '' ? test : `${pkg.name}.${test}`);
    buildFailed ||= pkg.buildFailed;
    for (const [test, outcome] of pkg.outcomes)
      tests.push({ id: id(test), status: statuses[outcome] });
    if (!pkg.failed || pkg.buildFailed) continue;
    const unfinished = [...pkg.started].filter((test) => !pkg.outcomes.has(test));
    for (const test of unfinished) tests.push({ id: id(test), status: 'failed' });
    const anyFailed = unfinished.length > 0 || [...pkg.outcomes.values()].includes('fail');
    if (!anyFailed && pkg.name !== '') tests.push({ id: pkg.name, status: 'failed' });
  }
  return { ...listOnly(tests), buildFailed };
}
