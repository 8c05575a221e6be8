// `go test -json`: one test2json event per line. A test's result is its `pass`/`fail`/`skip`
// event with a `Test` field, counted only if a `run` event for the same test came first: go 1.19's
// test2json turns a `--- PASS: X` line that a test prints itself into a `pass` event for X, but it
// never invents the matching `run`. A package-level `fail` (no `Test`; go ≥ 1.24 adds
// `FailedBuild` for build failures) marks the package failed. Older go versions print
// `FAIL pkg [build failed]` as plain text among the events; that line is read too.
import { tallyGo, type GoResult, type Outcome } from './go-results';
import { unparsed, type TestCounts } from './types';
import { toLines } from './text';

const buildFailedPattern = /^FAIL\s+(\S+) \[(?:build|setup) failed\]$/;

interface GoEvent {
  Action?: unknown;
  ImportPath?: unknown;
  Package?: unknown;
  Test?: unknown;
}

export function parseGoEvent(line: string): GoEvent | null {
  if (!line.startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null || !('Action' in value)) return null;
    // Every event of go test names its package (build events their import path); a bare
    // `{"Action":"pass","Test":"X"}` printed by a test does not.
    const event = value as GoEvent;
    return typeof event.Package === 'string' || typeof event.ImportPath === 'string' ? event : null;
  } catch {
    return null;
  }
}

export function parseGoJson(output: string): TestCounts {
  const started = new Set<string>();
  const results: GoResult[] = [];
  const failedPackages = new Set<string>();
  let sawEvent = false;

  for (const line of toLines(output)) {
    const built = buildFailedPattern.exec(line);
    if (built?.[1] !== undefined) failedPackages.add(built[1]);
    const event = parseGoEvent(line);
    if (event === null) continue;
    sawEvent = true;
    const pkg = typeof event.Package === 'string' ? event.Package : '';
    const action = event.Action;
    if (typeof event.Test !== 'string') {
      if (action === 'fail' && pkg !== '') failedPackages.add(pkg);
      continue;
    }
    const key = `${pkg}\u0000${event.Test}`;
    if (action === 'run') started.add(key);
    else if (isOutcome(action) && started.has(key)) {
      results.push({ pkg, test: event.Test, outcome: action });
    }
  }
  if (!sawEvent && failedPackages.size === 0) return unparsed();
  return tallyGo(results, failedPackages);
}

function isOutcome(action: unknown): action is Outcome {
  return action === 'pass' || action === 'fail' || action === 'skip';
}
