import { passAtK } from '../run/pass-at-k';
import type { RunFile } from '../run/run-file';

// What both reports show, computed once from a run's record.

export interface InstanceRow {
  readonly instanceId: string;
  /** Attempts done, and how many resolved. */
  readonly n: number;
  readonly c: number;
  /** The unbiased pass@k of this instance (k capped by its attempts); null before any attempt. */
  readonly passAtK: number | null;
  readonly tokens: number;
  readonly costUsd: number;
  readonly durationMs: number;
  readonly iterations: number;
  /** Why the first unresolved attempt was not resolved; null when every attempt was. */
  readonly why: string | null;
}

export function instanceRows(run: RunFile): InstanceRow[] {
  return run.instances.map((instance) => {
    const done = instance.attempts.filter((a) => a.state === 'done');
    const c = done.filter((a) => a.resolved).length;
    const sum = (pick: (a: (typeof done)[number]) => number): number =>
      instance.attempts.reduce((total, a) => total + pick(a), 0);
    return {
      instanceId: instance.instance_id,
      n: done.length,
      c,
      passAtK: done.length === 0 ? null : passAtK(done.length, c, Math.min(run.k, done.length)),
      tokens: sum((a) => a.tokens),
      costUsd: sum((a) => a.costUsd),
      durationMs: done.reduce((total, a) => total + a.durationMs, 0),
      iterations: done.reduce((total, a) => total + a.iterations, 0),
      why: instance.attempts.find((a) => !a.resolved)?.why ?? null,
    };
  });
}

/** Instances one run resolves (at least once) and the other never does. */
export interface RunDifference {
  readonly onlyFirst: readonly string[];
  readonly onlySecond: readonly string[];
  /** Instances in both runs. */
  readonly shared: number;
}

export function compareRuns(first: RunFile, second: RunFile): RunDifference {
  const resolvedIn = (run: RunFile): Map<string, boolean> =>
    new Map(run.instances.map((i) => [i.instance_id, i.attempts.some((a) => a.resolved)]));
  const a = resolvedIn(first);
  const b = resolvedIn(second);
  const shared = [...a.keys()].filter((id) => b.has(id));
  return {
    onlyFirst: shared.filter((id) => a.get(id) === true && b.get(id) !== true),
    onlySecond: shared.filter((id) => b.get(id) === true && a.get(id) !== true),
    shared: shared.length,
  };
}

/** A run's name in a report: its model, and the file it came from when two share a model. */
export function runLabel(run: RunFile, index: number, runs: readonly RunFile[]): string {
  const twin = runs.some((other, i) => i !== index && other.model === run.model);
  return twin ? `${run.model} (run ${index + 1})` : run.model;
}

export const percent = (rate: number): string => `${(rate * 100).toFixed(1)}%`;
export const dollars = (usd: number): string =>
  usd >= 100 ? `$${usd.toFixed(0)}` : usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
