import { plural, shortSha } from '../format';
import type { TaskView } from '../trpc/router-types';

export type PlanStep = TaskView['plan'][number];
export type Gate = PlanStep['gates'][number];

export interface GateEvidence {
  /** For the icon and colour; the text says the same in words. */
  readonly tone: 'green' | 'red' | 'stale' | 'none';
  readonly text: string;
}

/**
 * What a gate's newest run proves. Only a run on the newest checkpoint counts: a later write makes
 * it stale, whatever it said.
 */
export function gateEvidence(lastRun: Gate['lastRun']): GateEvidence {
  if (lastRun === null) return { tone: 'none', text: 'not run yet' };
  if (!lastRun.current) {
    const where = lastRun.commitSha === null ? '' : ` on ${shortSha(lastRun.commitSha)}`;
    return { tone: 'stale', text: `stale: last ran${where}, before the last write` };
  }
  if (lastRun.green) return { tone: 'green', text: 'green on the current checkpoint' };
  const exit = lastRun.exitCode === null ? 'no exit code' : `exit ${lastRun.exitCode}`;
  return { tone: 'red', text: `red on the current checkpoint (${exit})` };
}

/** The step agents work on: the first open one; null when every step is done. */
export function currentStep(plan: readonly PlanStep[]): number | null {
  return plan.find((step) => step.status === 'open')?.index ?? null;
}

/** `1 of 3 steps done` */
export function planProgress(plan: readonly PlanStep[]): string {
  const done = plan.filter((step) => step.status === 'done').length;
  return `${done} of ${plural(plan.length, 'step')} done`;
}
