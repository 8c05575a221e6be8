import type { ShadowMode } from './executor';

/** One hypothesis's outcome; field names are part of the `shadow-run --json` contract. */
export interface HypothesisOutcome {
  readonly name: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly parsed: boolean;
  readonly changedLines: number;
  readonly outputTail: string;
  readonly error: string | null;
}

export interface HypothesisResult extends HypothesisOutcome {
  /** 1 for the best. */
  readonly rank: number;
}

export interface ShadowRunReport {
  readonly mode: ShadowMode;
  readonly winner: string | null;
  readonly winnerDiff: string | null;
  /** Best first. */
  readonly hypotheses: readonly HypothesisResult[];
  /** Whether the winner was written into the workspace. */
  readonly applied: boolean;
}
