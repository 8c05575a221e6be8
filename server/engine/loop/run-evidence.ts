import { failureCause, missingThing, type SetupFacts } from '../shadow/failure-cause';
import type { RunSummary } from './task-events';

/** Ids of the tests that failed in `run`. */
export function failingIds(run: Pick<RunSummary, 'cases'>): string[] {
  return run.cases.filter((c) => c.status === 'failed').map((c) => c.id);
}

/**
 * The failures a run leaves, but the task's known ones. Where the runner named only its failures
 * (`pytest -q` without a report, unittest without `-v`), those names are enough. Where it names no
 * tests, every failure counts: a known failure cannot be told apart by its count.
 */
export function remainingFailures(
  run: Pick<RunSummary, 'cases' | 'failed' | 'failing'>,
  known: readonly string[],
): { readonly ids: readonly string[]; readonly count: number } {
  // A list of failures is believed only when it names them all.
  const failing =
    run.failing !== undefined && run.failing.length === run.failed ? run.failing : null;
  const named = run.cases.length > 0 ? failingIds(run) : failing;
  if (named === null) return { ids: [], count: run.failed };
  const knownSet = new Set(known);
  const ids = named.filter((id) => !knownSet.has(id));
  return { ids, count: ids.length };
}

// Exit codes a shell gives when the program could not run at all.
const notExecutable = 126;
const notFound = 127;

/**
 * Why a baseline run cannot tell anything, in words a person can act on; null when it can.
 * A baseline that ran no tests, could not be read or could not start would make every verdict
 * after it meaningless (a zero-test run "passes" with exit 0). `setup`: what the task's setup did
 * (null: none), to name the way out when a dependency was never fetched.
 */
export function baselineProblem(
  run: RunSummary,
  command: readonly string[],
  setup?: SetupFacts | null,
): string | null {
  const program = command[0] ?? 'the test command';
  const missing = missingThing(run.outputTail);
  if (run.error !== null) return `the baseline run could not be trusted: ${run.error}`;
  if (run.timedOut) return 'the baseline run timed out';
  if (run.exitCode === notFound || run.exitCode === notExecutable || (!run.parsed && missing)) {
    const what = missing ?? program;
    return `${what}: not found — is a setup command missing?`;
  }
  // Before "does not build" and "could not be read": a dependency tests could not fetch offline
  // is both, and only its cause says what to do.
  const cause = failureCause(run.outputTail, setup);
  if (cause?.kind === 'dependency' && (run.buildFailed || !run.parsed)) {
    return cause.message;
  }
  if (run.buildFailed) return 'the code does not build at the baseline (see its output)';
  if (!run.parsed) {
    return `the output of '${command.join(' ')}' could not be read as test results (is it a test runner Shadowbox knows?)`;
  }
  if (run.passed + run.failed === 0) return 'the test command ran no tests';
  return null;
}
