import type { TestCase } from '../parsers';
import type { ShadowMode } from './executor';
import type { TestDelta } from './test-delta';

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
  /** The code did not build (the build command or the runner's compile step failed). */
  readonly buildFailed: boolean;
  /** Each test the runner named, in its order; empty when it prints counts only. */
  readonly cases: readonly TestCase[];
  /** Against the run's reference (the baseline or the checkpoint built on); null without one. */
  readonly tests: TestDelta | null;
  /** Why the run cannot win, in words; null for a pass. */
  readonly disqualified: string | null;
  readonly changedLines: number;
  readonly outputTail: string;
  readonly error: string | null;
  /**
   * How the results were read, in words ("by test id, from a JUnit report added to the
   * command", "by totals only, from the console: it names no tests"). An additive field of the
   * `shadow-run --json` contract.
   */
  readonly readAs?: string;
  /** With `cases` empty: every failing test, where the output named them all. */
  readonly failing?: readonly string[];
  /**
   * Set when this hypothesis makes the same tree as an earlier one of the run (see same-tree.ts):
   * it did not run, and every field above but its name is that hypothesis's outcome. Absent
   * otherwise (an optional extra of the `shadow-run --json` contract).
   */
  readonly sameTreeAs?: string;
  /**
   * The run's canary tests (see canaries.ts): their names and the command's own exit code (the
   * `exitCode` above is the one the run would have had without the failing canary), or why the
   * run had none. Absent for a hypothesis that did not run.
   */
  readonly canaries?: CanaryNote;
  /** Why the run's own code is taken to have forged its results; `disqualified` says it too. */
  readonly tampered?: string;
}

export type CanaryNote =
  | { readonly passing: string; readonly failing: string; readonly exitCode: number | null }
  | { readonly skipped: string };

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
