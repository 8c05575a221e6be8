import type { EvalRunDetail, EvalRunProgress } from './eval-types';

// What the eval pages say about a run, pure (the server and the browser render the same text).

/** How often the pages read a run again while one goes. */
export const pollMs = 2000;

export const isGoing = (runs: readonly Pick<EvalRunProgress, 'state'>[]): boolean =>
  runs.some((run) => run.state === 'running');

export const stateLabel: Readonly<Record<EvalRunProgress['state'], string>> = {
  running: 'running',
  done: 'done',
  stopped: 'stopped',
};

export function dollars(usd: number): string {
  return usd >= 100 ? `$${usd.toFixed(0)}` : usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** `3/10 instances · 7/30 attempts · 5 resolved · 12,000 tokens · $0.0312` */
export function progressLine(p: EvalRunProgress): string {
  return [
    `${p.instancesDone}/${p.instances} instances`,
    `${p.attemptsDone}/${p.attempts} attempts`,
    `${p.resolved} resolved`,
    `${p.tokens.toLocaleString('en')} tokens`,
    dollars(p.costUsd),
  ].join(' · ');
}

/** The report frame cannot size itself (no script runs in it): tall enough for its tables. */
export function reportFrameHeight(detail: Pick<EvalRunDetail, 'rows'>): number {
  return Math.min(4000, 640 + 34 * detail.rows.length);
}

/** A set file's text for the form: read in the browser, refused early when over the cap. */
export const maxSetBytes = 5 * 1024 * 1024;
