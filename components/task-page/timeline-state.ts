import type { EventOf, TaskStatus } from '../trpc/router-types';

export type RunSummary = EventOf<'baseline.finished'>['run'];
export type HypothesisOutcome = EventOf<'hypothesis.finished'>['result'];
export type TestDelta = NonNullable<HypothesisOutcome['tests']>;
export type SetupResult = EventOf<'setup.finished'>;

/** How much of a running command's output the page keeps (the final tail arrives with the result). */
export const liveOutputLines = 200;

export interface HypothesisRow {
  readonly name: string;
  readonly origin: string;
  readonly state: 'queued' | 'running' | 'finished';
  /** 1 for the best, once the iteration is ranked. */
  readonly rank: number | null;
  readonly result: HypothesisOutcome | null;
  readonly liveOutput: readonly string[];
}

export interface IterationState {
  readonly index: number;
  readonly state: 'started' | 'awaiting_hypotheses' | 'running' | 'finished';
  readonly wanted: number | null;
  readonly deadline: string | null;
  /** Best first once the iteration is ranked; in submission order before. */
  readonly hypotheses: readonly HypothesisRow[];
  readonly winner: string | null;
  readonly green: boolean | null;
  readonly checkpointSha: string | null;
  /** A review round's iteration: who asked for changes, and what they asked. Null otherwise. */
  readonly review: ReviewRound | null;
}

/** A reviewer's request for changes, which started the iteration of its review round. */
export interface ReviewRound {
  readonly round: number;
  readonly by: string;
  readonly summary: string | null;
  /** The open threads the round's hypotheses answer. */
  readonly threads: number;
}

/** Installing the dependencies, once, before the baseline. */
export interface SetupState {
  readonly state: 'waiting' | 'running' | 'finished';
  readonly commands: readonly (readonly string[])[];
  /** Whether the commands were detected from the tree (the task gave none). */
  readonly detected: boolean;
  /** Why each detected command: "package-lock.json → npm ci". */
  readonly reasons: readonly string[];
  readonly liveOutput: readonly string[];
  readonly result: SetupResult | null;
}

export interface IntakeState {
  readonly state: 'waiting' | 'running' | 'completed' | 'rejected';
  readonly location: string | null;
  readonly entries: number;
  readonly bytes: number;
  /** Git's own progress: the phase and its percentage. */
  readonly phase: string | null;
  readonly percent: number | null;
  readonly files: number | null;
  readonly commit: string | null;
  readonly rejection: { readonly code: string; readonly message: string } | null;
}

export interface Note {
  readonly seq: number;
  readonly at: string;
  readonly kind:
    | 'approved'
    | 'rejected'
    | 'rolled_back'
    | 'restored'
    | 'reopened'
    | 'failed'
    | 'cancelled'
    | 'interrupted'
    | 'gates_green'
    | 'gates_red'
    | 'step_done'
    | 'step_reset'
    | 'advice'
    | 'commented'
    | 'changes_requested'
    | 'thread'
    | 'dismissed'
    | 'review_now'
    | 'known_failures'
    | 'promoted'
    | 'pushed';
  readonly text: string;
  /** Lines under the text (e.g. each gate's result). */
  readonly details: readonly string[];
  /**
   * Notes of one group in a row fold into one ("alice resolved 3 threads"): the group and how
   * many events the note stands for.
   */
  readonly group?: { readonly key: string; readonly count: number };
}

/** The fixer's spend as the stream reported it: the task's totals after the last decision. */
export interface SpendState {
  readonly tokens: number;
  readonly costMicroUsd: number;
  readonly decisions: number;
}

export interface TimelineState {
  /** The last event applied: anything at or below it is a repeat and ignored. */
  readonly lastSeq: number;
  readonly status: TaskStatus | null;
  readonly created: EventOf<'task.created'> | null;
  readonly intake: IntakeState;
  readonly workspace: EventOf<'workspace.ready'> | null;
  readonly setup: SetupState;
  readonly baseline: {
    readonly state: 'waiting' | 'running' | 'finished';
    readonly command: readonly string[] | null;
    readonly liveOutput: readonly string[];
    readonly run: RunSummary | null;
  };
  readonly iterations: readonly IterationState[];
  /** Hypotheses submitted and waiting for the next iteration. */
  readonly pending: readonly { readonly name: string; readonly origin: string }[];
  readonly review: EventOf<'review.ready'> | null;
  /** Null until the first `fixer.spent`. */
  readonly spend: SpendState | null;
  readonly notes: readonly Note[];
}

export const initialTimeline: TimelineState = {
  lastSeq: 0,
  status: null,
  created: null,
  intake: {
    state: 'waiting',
    location: null,
    entries: 0,
    bytes: 0,
    phase: null,
    percent: null,
    files: null,
    commit: null,
    rejection: null,
  },
  workspace: null,
  setup: {
    state: 'waiting',
    commands: [],
    detected: false,
    reasons: [],
    liveOutput: [],
    result: null,
  },
  baseline: { state: 'waiting', command: null, liveOutput: [], run: null },
  iterations: [],
  pending: [],
  review: null,
  spend: null,
  notes: [],
};

/** Appends lines, keeping the last `liveOutputLines`. */
export function appendTail(tail: readonly string[], lines: readonly string[]): readonly string[] {
  const joined = [...tail, ...lines];
  return joined.length > liveOutputLines ? joined.slice(-liveOutputLines) : joined;
}
