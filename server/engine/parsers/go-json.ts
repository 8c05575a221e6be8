// `go test -json`: one test2json event per line. A test's result is its `pass`/`fail`/`skip`
// event with a `Test` field, counted only if a `run` event for the same test came first: go 1.19's
// test2json turns a `--- PASS: X` line that a test prints itself into a `pass` event for X, but it
// never invents the matching `run`. A package-level `fail` (no `Test`) marks the package failed;
// go ≥ 1.24 adds `FailedBuild` when it did not build, and reports the build itself as
// `build-output`/`build-fail` events. Older go versions print `FAIL pkg [build failed]` (or
// `[setup failed]`) as plain text among the events; that line is read too.
import { GoRun, tallyGo, type Outcome } from './go-results';
import { buildFailedPattern } from './go-text';
import { unparsed, type TestCounts } from './types';
import { isCutTail, toLines } from './text';

interface GoEvent {
  Action?: unknown;
  ImportPath?: unknown;
  Package?: unknown;
  Test?: unknown;
  FailedBuild?: unknown;
  Output?: unknown;
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
  const run = new GoRun();
  let sawEvent = false;
  let sawBuildFailure = false;

  for (const line of toLines(output)) {
    const built = buildFailedPattern.exec(line)?.[1];
    if (built !== undefined) {
      const pkg = run.get(built);
      pkg.failed = true;
      pkg.buildFailed = true;
      sawBuildFailure = true;
    }
    const event = parseGoEvent(line);
    if (event === null) continue;
    sawEvent = true;
    if (event.Action === 'build-fail') sawBuildFailure = true;
    if (typeof event.Package !== 'string') continue;
    const pkg = run.get(event.Package);
    const action = event.Action;
    if (typeof event.Test !== 'string') {
      if (action === 'fail') pkg.failed = true;
      if (action === 'fail' && typeof event.FailedBuild === 'string') pkg.buildFailed = true;
      continue;
    }
    if (action === 'run') pkg.start(event.Test);
    else if (isOutcome(action) && pkg.started.has(event.Test)) pkg.report(event.Test, action);
  }
  if (!sawEvent && !sawBuildFailure) return unparsed();
  const result = tallyGo(run);
  const buildFailed = result.buildFailed || sawBuildFailure;
  // Without a run-wide summary, a tail whose beginning was cut cannot name every test.
  return { ...result, buildFailed, tests: isCutTail(output) ? [] : result.tests };
}

function isOutcome(action: unknown): action is Outcome {
  return action === 'pass' || action === 'fail' || action === 'skip';
}
