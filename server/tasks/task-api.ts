import type { RunLimits } from '../engine/sandbox';
import type { Hypothesis } from '../engine/shadow';
import type { DiffFlags } from '../engine/review';
import type { TaskStatus } from '../engine/loop';
import type { StoredEvent } from '../db/event-store';
import type { SetupRecord } from '../engine/loop';
import type { TestDelta } from '../engine/shadow';

/**
 * What the task services offer the transports (REST for agents, tRPC for the UI, MCP). The
 * transports validate and authenticate, then call exactly one of these; every refusal is an
 * AppError whose code the transport maps to a status.
 */

import type { Actor } from '../auth/actor';

// Caller identity belongs to auth; the services' API names it for the transports.
export type { Actor, Scope } from '../auth/actor';

export type TaskSourceInput =
  | { readonly kind: 'git'; readonly url: string; readonly ref?: string | undefined }
  | {
      readonly kind: 'archive';
      /** An uploaded file on the server's disk; the service owns it from here and deletes it. */
      readonly file: string;
      /** The name the client gave the file (shown, never used as a path). */
      readonly name: string;
    };

export interface PlanStepInput {
  readonly title: string;
  /** What the step may touch (paths or a sentence); shown to agents with the step. */
  readonly scope?: string | undefined;
  /** Gate commands (argv each, checked by the command policy). */
  readonly gates: readonly (readonly string[])[];
}

export interface CreateTaskInput {
  readonly source: TaskSourceInput;
  readonly testCommand: readonly string[];
  readonly maxIterations?: number | undefined;
  readonly hypothesesPerIteration?: number | undefined;
  /** 'external' (default): hypotheses come from the API, MCP or browser; 'llm': the model. */
  readonly fixer?: 'external' | 'llm' | undefined;
  readonly allowTestEdits?: boolean | undefined;
  /** LLM budget in tokens for the whole task. */
  readonly maxTokens?: number | undefined;
  readonly plan?: readonly PlanStepInput[] | undefined;
  /** Caps of each sandboxed run; a field left out takes the server's default. */
  readonly limits?: Partial<RunLimits> | undefined;
  /**
   * Installs dependencies once, in the worktree, with network only through the egress allowlist
   * (argv each). Left out: detected from the tree and shown on the task before it runs; `[]`:
   * no setup at all.
   */
  readonly setupCommands?: readonly (readonly string[])[] | undefined;
  /** Runs before the test command in every run, offline (`cmake --build build`, `tsc -p .`). */
  readonly buildCommand?: readonly string[] | undefined;
  /** Test ids that may keep failing (environmental): the task is green without them. */
  readonly knownFailures?: readonly string[] | undefined;
}

export interface GateView {
  readonly argv: readonly string[];
  /** The newest run of this gate, if any. */
  readonly lastRun: {
    readonly green: boolean;
    readonly exitCode: number | null;
    readonly commitSha: string | null;
    readonly at: string;
    /** Whether it ran on the newest checkpoint (only then does it count). */
    readonly current: boolean;
  } | null;
}

export interface PlanStepView {
  readonly index: number;
  readonly title: string;
  readonly scope: string;
  readonly status: 'open' | 'done';
  readonly doneAt: string | null;
  readonly gates: readonly GateView[];
}

export interface MilestoneStatus {
  /** The first open step, or null when every step is done (or there is no plan). */
  readonly current: PlanStepView | null;
  readonly steps: readonly PlanStepView[];
}

export type MilestoneAction =
  | { readonly action: 'status' }
  | { readonly action: 'done'; readonly step: number }
  | { readonly action: 'reset'; readonly step: number };

export type MilestoneResult =
  | { readonly accepted: true; readonly status: MilestoneStatus }
  /** `done` refused: the reason names the gates that did not run green after the last write. */
  | { readonly accepted: false; readonly reason: string; readonly status: MilestoneStatus };

export interface RunCounts {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
}

export interface HypothesisView {
  /** The code did not build: no test ran. */
  readonly buildFailed: boolean;
  /** Against the run's reference (the baseline or the checkpoint built on); null without one. */
  readonly tests: TestDelta | null;
  /** Why the run cannot win, in words; null for a pass (or a run not judged yet). */
  readonly disqualified: string | null;
  readonly name: string;
  readonly origin: string;
  readonly rank: number | null;
  readonly verdict: string;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly durationMs: number | null;
  readonly changedLines: number | null;
  readonly mode: string | null;
  readonly outputTail: string;
  readonly error: string | null;
}

export interface IterationView {
  readonly index: number;
  readonly status: string;
  readonly winner: string | null;
  readonly checkpointSha: string | null;
  /** Best first once ranked. */
  readonly hypotheses: readonly HypothesisView[];
}

export interface BaselineView extends RunCounts {
  readonly buildFailed: boolean;
  /** The ids of the tests that failed, when the runner names its tests. */
  readonly failingTests: readonly string[];
  /** The tests already pass at the baseline (but the task's known failures). */
  readonly green: boolean;
  readonly exitCode: number | null;
  readonly durationMs: number;
  readonly parsed: boolean;
  readonly outputTail: string;
}

/** `GET /api/v1/tasks/{id}`; field names are part of the REST contract. */
export interface TaskView {
  /** The task's own setup commands; null: detected from the tree; []: no setup. */
  readonly setupCommands: readonly (readonly string[])[] | null;
  /** Runs before the test command in every run; null: none. */
  readonly buildCommand: readonly string[] | null;
  /** Test ids that may keep failing: the task is green without them. */
  readonly knownFailures: readonly string[];
  /** What the setup did, once it ran: commands, reasons, cache, duration, egress. */
  readonly setup: SetupRecord | null;
  /** The fix under review leaves baseline failures failing (listed in `stillFailing`). */
  readonly reviewPartial: boolean;
  /** Tests still failing in the fix under review, all of them failing since the baseline. */
  readonly stillFailing: readonly string[];
  readonly id: string;
  readonly status: TaskStatus;
  readonly source:
    | { readonly kind: 'git'; readonly url: string; readonly ref: string | null }
    | { readonly kind: 'archive'; readonly name: string };
  readonly testCommand: readonly string[];
  readonly maxIterations: number;
  readonly hypothesesPerIteration: number;
  readonly baseline: BaselineView | null;
  readonly iterations: readonly IterationView[];
  /** Hypotheses submitted and waiting for the next iteration. */
  readonly pendingHypotheses: readonly string[];
  readonly diffSha256: string | null;
  readonly approvedDiffSha256: string | null;
  readonly error: string | null;
  readonly lastEventId: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly fixer: string;
  readonly allowTestEdits: boolean;
  /** The task's own caps per run; null fields take the server's default. */
  readonly limits: {
    readonly maxMemoryMb: number | null;
    readonly maxPids: number | null;
    readonly maxDiskMb: number | null;
  };
  /** LLM spend so far (tokens and estimated cost), and the cap. */
  readonly spend: {
    readonly tokens: number;
    readonly costMicroUsd: number;
    readonly maxTokens: number | null;
  };
  readonly plan: readonly PlanStepView[];
  /** Comments of the reviewer model on the diff under review (never an approval). */
  readonly reviewComments: readonly {
    readonly reviewer: string;
    readonly verdict: string;
    readonly comment: string;
    readonly diffSha256: string;
  }[];
}

export interface TaskSummary {
  readonly id: string;
  readonly status: TaskStatus;
  readonly source: TaskView['source'];
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly lastEventId: number;
}

export interface DiffView {
  /** The exact stored bytes as UTF-8 text (a `git format-patch` mail). */
  readonly diff: string;
  readonly sha256: string;
  readonly flags: DiffFlags;
}

export interface PatchDownload {
  readonly bytes: Buffer;
  readonly sha256: string;
  /** `shadowbox-<task id>-<first 12 hex of the hash>.patch` */
  readonly fileName: string;
}

export interface WorkspaceFile {
  readonly path: string;
  readonly size: number;
  readonly executable: boolean;
}

export interface ReviewInput {
  readonly verdict: 'approve' | 'reject';
  /** The hash of the diff the reviewer saw. */
  readonly sha256: string;
  readonly comment?: string | undefined;
}

export interface TaskServiceApi {
  createTask(input: CreateTaskInput, actor: Actor): Promise<{ readonly id: string }>;
  /** Queues hypotheses for the task's next iteration; refuses duplicate names and bad paths. */
  submitHypotheses(
    taskId: string,
    hypotheses: readonly Hypothesis[],
    actor: Actor,
  ): Promise<{ readonly accepted: readonly string[] }>;
  getTask(taskId: string): Promise<TaskView>;
  listTasks(options?: { readonly limit?: number }): Promise<readonly TaskSummary[]>;
  getDiff(taskId: string): Promise<DiffView>;
  /** Re-checks the stored bytes against their hash before returning them. */
  getPatch(taskId: string): Promise<PatchDownload>;
  /** Compare-and-set on the hash: STALE_DIFF (409) when it is not the current diff's. */
  review(taskId: string, input: ReviewInput, actor: Actor): Promise<TaskView>;
  cancel(taskId: string, actor: Actor): Promise<TaskView>;
  /**
   * Gives up on the task's fix: a running task is cancelled; a task under review (or approved)
   * has its worktree reset to the baseline and ends cancelled.
   */
  rollback(taskId: string, actor: Actor): Promise<TaskView>;
  /** The workspace's regular files at the newest checkpoint (what a hypothesis edits). */
  listFiles(taskId: string): Promise<readonly WorkspaceFile[]>;
  /** One file's text at the newest checkpoint; binary and large files are refused. */
  readFile(taskId: string, path: string): Promise<string>;
  /** The plan's steps and gate evidence; `done` is accepted only on green gates after the last write. */
  milestone(taskId: string, action: MilestoneAction, actor: Actor): Promise<MilestoneResult>;
  /** Notifies whenever any task has new events (the task list), until `signal` aborts. */
  taskChanges(
    signal: AbortSignal,
  ): AsyncIterable<{ readonly taskId: string; readonly seq: number }>;
  /**
   * The task's events after `afterSeq`, then live ones as they are persisted, until `signal`
   * aborts. Never skips or repeats a sequence number.
   */
  events(taskId: string, afterSeq: number, signal: AbortSignal): AsyncIterable<StoredEvent>;
}
