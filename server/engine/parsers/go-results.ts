// Shared arithmetic of the two go test formats (`-json` events and `-v` text).
//
// Subtests: only leaves count. A parent test reports pass/fail as the roll-up of its subtests, so
// counting it too would count one failure twice. The exception is a parent that failed while none
// of its subtests did (a `t.Fatal` after its `t.Run`s): that failure is its own and counts once.
//
// Packages: a package that go reports as FAIL without any failing test in it (build failure,
// `[setup failed]`, a panic in TestMain or init, a test binary killed by -timeout) counts as one
// failure. Go itself prints such a package as a FAIL result line, and without it a broken package
// next to green ones would look like a clean run. `[no test files]` packages count as nothing.
import { counts, type TestCounts } from './types';

export type Outcome = 'pass' | 'fail' | 'skip';

export interface GoResult {
  readonly pkg: string;
  readonly test: string;
  readonly outcome: Outcome;
}

export function tallyGo(
  results: readonly GoResult[],
  failedPackages: ReadonlySet<string>,
): TestCounts {
  const key = (pkg: string, test: string): string => `${pkg}\u0000${test}`;
  // With -count=N a test reports N times; the last report stands for it.
  const byKey = new Map<string, GoResult>();
  for (const result of results) byKey.set(key(result.pkg, result.test), result);

  const parents = new Set<string>();
  const parentsOfFailures = new Set<string>();
  for (const { pkg, test, outcome } of byKey.values()) {
    const parts = test.split('/');
    for (let depth = 1; depth < parts.length; depth += 1) {
      const ancestor = key(pkg, parts.slice(0, depth).join('/'));
      parents.add(ancestor);
      if (outcome === 'fail') parentsOfFailures.add(ancestor);
    }
  }

  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const packagesWithFailures = new Set<string>();
  for (const [id, { pkg, outcome }] of byKey) {
    const counted = !parents.has(id) || (outcome === 'fail' && !parentsOfFailures.has(id));
    if (!counted) continue;
    if (outcome === 'pass') passed += 1;
    else if (outcome === 'skip') skipped += 1;
    else {
      failed += 1;
      packagesWithFailures.add(pkg);
    }
  }
  for (const pkg of failedPackages) if (!packagesWithFailures.has(pkg)) failed += 1;
  return counts(passed, failed, skipped);
}
