import type { Hypothesis } from '../shadow/hypothesis';
import { isPass } from '../shadow/rank';
import type { HypothesisOutcome, ShadowRunReport } from '../shadow/shadow-report';
import type { TestEvidence } from '../shadow/test-delta';
import type { SetupRunResult } from './loop-ports';
import type { remainingFailures } from './run-evidence';
import type { RunSummary } from './task-events';

// Values the loop's steps share: run summaries, the failures a run leaves, reasons in words.

export function summarize(outcome: HypothesisOutcome): RunSummary {
  const { name: _name, changedLines: _lines, ...run } = outcome;
  // Judged against a reference, the verdict is the shadow run's; alone, the run must pass.
  const green =
    outcome.tests === null ? isPass({ ...outcome, index: 0 }) : outcome.disqualified === null;
  return { ...run, green };
}

/** What the timeline carries of a run: everything but the per-test list (kept on the run row). */
export const withoutCases = <T extends { readonly cases: readonly unknown[] }>(run: T): T => ({
  ...run,
  cases: [],
});

export const evidenceOf = (run: RunSummary): TestEvidence => run;

export type Failures = ReturnType<typeof remainingFailures>;
export const noFailures: Failures = { ids: [], count: 0 };

export const emptyReport = (mode: ShadowRunReport['mode']): ShadowRunReport => ({
  mode,
  winner: null,
  winnerDiff: null,
  hypotheses: [],
  applied: false,
});

/** Files a hypothesis writes or deletes: exactly what its checkpoint commits. */
export const touchedPaths = (h: Hypothesis): string[] => [
  ...h.edits.map((e) => e.path),
  ...h.delete,
];

/** One line a person can act on: which command failed how, and what the proxy refused. */
export function setupFailureReason(result: SetupRunResult): string {
  const command = result.failedCommand === null ? '' : ` '${result.failedCommand.join(' ')}'`;
  const what =
    result.error ??
    `setup${command} ${result.timedOut ? 'timed out' : `exited with ${String(result.exitCode)}`}`;
  const refused = result.egress.filter((e) => !e.allowed).map((e) => `${e.host}:${e.port}`);
  return `${what}${refused.length === 0 ? '' : `; refused: ${refused.join(', ')}`}`;
}
