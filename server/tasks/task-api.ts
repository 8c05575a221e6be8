import type { z } from 'zod';
import type { RunLimits } from '../engine/sandbox';
import type { Hypothesis } from '../engine/shadow';
import type { DiffFlags } from '../engine/review';
import type { StoredEvent } from '../db/event-store';
import type { RemoteSummary } from '../remotes/remotes';
import type { ListTasksQueryInput } from './list-tasks-query';
import type { CompareCell, CompareMatrix } from './compare/compare-schema';
import type {
  baselineViewSchema,
  gateViewSchema,
  hypothesisViewSchema,
  iterationViewSchema,
  planStepViewSchema,
  taskSummarySchema,
  taskViewSchema,
} from './task-view-schema';

/**
 * What the task services offer the transports (REST for agents, tRPC for the UI, MCP). The
 * transports validate and authenticate, then call exactly one of these; every refusal is an
 * AppError whose code the transport maps to a status.
 */

import type { Actor } from '../auth/actor';
import type { InterdiffQuery, InterdiffView } from './interdiff-refs';
import type { PromoteInput } from './promote-input';

// Caller identity belongs to auth; the services' API names it for the transports.
export type { Actor, Person, Role, Scope } from '../auth/actor';

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
  /** What the task is for, in a line; left out: made from the source (repository and ref). */
  readonly title?: string | undefined;
  /** The bug report or issue text (Markdown, at most 64 KB), given to fixers and reviewers. */
  readonly problem?: string | undefined;
  /** The issue it answers (https only): shown as a link, never fetched. */
  readonly issueUrl?: string | undefined;
  /** The team to share the task with (one the creator belongs to); left out: only theirs. */
  readonly team?: string | undefined;
  readonly testCommand: readonly string[];
  readonly maxIterations?: number | undefined;
  readonly hypothesesPerIteration?: number | undefined;
  /**
   * How long an iteration waits for hypotheses before the task goes on without them (to review,
   * partial, when a checkpoint fixed some failures; else it fails). Default 1800 s.
   */
  readonly hypothesisWaitSecs?: number | undefined;
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
  /**
   * The eval run the task is an attempt of (`shadowbox eval run`): such tasks stay out of the
   * task list unless it asks for scope `evals` or `all`. Set in process only; no transport
   * accepts it.
   */
  readonly evalRunId?: string | undefined;
}

/*
 * The views are defined once, as zod schemas (task-view-schema.ts): their types are `z.infer` of
 * them, read-only throughout as the services hand them out.
 */

/** What `z.infer` gives, with every field and array read-only. */
type ReadonlyView<T> = T extends readonly (infer E)[]
  ? readonly ReadonlyView<E>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadonlyView<T[K]> }
    : T;

export type GateView = ReadonlyView<z.infer<typeof gateViewSchema>>;

export type PlanStepView = ReadonlyView<z.infer<typeof planStepViewSchema>>;

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

export type HypothesisView = ReadonlyView<z.infer<typeof hypothesisViewSchema>>;

export type IterationView = ReadonlyView<z.infer<typeof iterationViewSchema>>;

export type BaselineView = ReadonlyView<z.infer<typeof baselineViewSchema>>;

/** `GET /api/v1/tasks/{id}`; field names are part of the REST contract. */
export type TaskView = ReadonlyView<z.infer<typeof taskViewSchema>>;

/** One task of `GET /api/v1/tasks`. */
export type TaskSummary = ReadonlyView<z.infer<typeof taskSummarySchema>>;

/** `GET /api/v1/tasks`: a page of summaries and where the next one starts (null: the last). */
export interface TaskPage {
  readonly tasks: readonly TaskSummary[];
  readonly nextCursor: string | null;
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

/** What `exportApproved` writes: the approved change as a patch series or a bundle. */
export type ExportKind =
  /** One commit per checkpoint, as `git format-patch` mails. */
  | { readonly kind: 'series'; readonly squash: boolean }
  /** The approved commit(s) on branch `shadowbox/<task id>`. */
  | { readonly kind: 'bundle'; readonly squash: boolean };

/** Where `push` sends the approved change (push-input.ts checks the transports' body). */
export interface PushTaskInput {
  readonly remote: string;
  /** Default `shadowbox/<task id>`. */
  readonly branch?: string | undefined;
  /** One commit for the whole change instead of one per checkpoint. */
  readonly squash?: boolean | undefined;
  /** Open a pull request for the branch, or update the one open for it (the remote's forge). */
  readonly pullRequest?: boolean | undefined;
}

export interface PushOutcome {
  readonly remote: string;
  readonly branch: string;
  readonly commit: string;
  /** The approved diff the commit carries. */
  readonly sha256: string;
  readonly pullRequest: {
    readonly number: number;
    readonly url: string;
    readonly created: boolean;
  } | null;
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
  getTask(taskId: string, actor: Actor): Promise<TaskView>;
  /**
   * A page of the tasks the actor may see, newest first, filtered (list-tasks-query.ts checks the
   * query: INVALID_ARGUMENT naming the parameter); `nextCursor` pages on.
   */
  listTasks(actor: Actor, query?: ListTasksQueryInput): Promise<TaskPage>;
  getDiff(taskId: string, actor: Actor): Promise<DiffView>;
  /** Re-checks the stored bytes against their hash before returning them. */
  getPatch(taskId: string, actor: Actor): Promise<PatchDownload>;
  /**
   * An approved change as commits (`git format-patch` series or `git bundle`), one per checkpoint
   * or squashed; STALE_DIFF while the approval is not on the current diff.
   */
  exportApproved(taskId: string, what: ExportKind, actor: Actor): Promise<PatchDownload>;
  /**
   * Pushes the approved change to a branch of a configured remote (reviewers): PUSH_REJECTED with
   * git's reason, STALE_DIFF when the approval is not on the current diff.
   */
  push(taskId: string, input: PushTaskInput, actor: Actor): Promise<PushOutcome>;
  /** The remotes a push may go to: names, URLs and forges, never a credential. */
  listRemotes(actor: Actor): Promise<readonly RemoteSummary[]>;
  /**
   * Compare-and-set on the hash: STALE_DIFF (409) when it is not the current diff's. Only a task
   * awaiting review takes a verdict (an approval is changed only by reopening it first).
   */
  review(taskId: string, input: ReviewInput, actor: Actor): Promise<TaskView>;
  /** Takes an approved task back to review (a reviewer's act); the approval no longer holds. */
  reopen(taskId: string, actor: Actor): Promise<TaskView>;
  cancel(taskId: string, actor: Actor): Promise<TaskView>;
  /**
   * A task waiting for hypotheses puts its newest checkpoint (beyond the baseline) up for review
   * now, partial, instead of at the end of the wait. The owner, reviewers and admins; audited.
   */
  sendToReview(taskId: string, actor: Actor): Promise<TaskView>;
  /**
   * Accepts tests of the view's `knownFailureOffer` (failed at the baseline, still failing at the
   * newest checkpoint) as known failures. The owner, reviewers and admins; audited.
   */
  acceptKnownFailures(taskId: string, ids: readonly string[], actor: Actor): Promise<TaskView>;
  /**
   * A reviewer puts a passing runner-up of the newest iteration up for review in the ranked
   * winner's place, for a reason (1–2000 characters, kept and audited): a new diff and SHA-256.
   */
  promote(taskId: string, input: PromoteInput, actor: Actor): Promise<TaskView>;
  /** The unified diff between the trees two refs of the task name, and the files either touches. */
  interdiff(taskId: string, query: InterdiffQuery, actor: Actor): Promise<InterdiffView>;
  /**
   * Gives up on the task's fix: a running task is cancelled; a task under review (or approved)
   * has its worktree reset to the baseline and ends cancelled.
   */
  rollback(taskId: string, actor: Actor): Promise<TaskView>;
  /**
   * The compare matrix of iteration `iteration` (1-based; NOT_FOUND naming it when the task has
   * none), or of the whole task when undefined: the baseline, then each hypothesis, test by test.
   */
  compare(taskId: string, iteration: number | undefined, actor: Actor): Promise<CompareMatrix>;
  /** One compare cell's output lines: the test's lines in one of the task's runs. */
  compareCell(taskId: string, runId: string, test: string, actor: Actor): Promise<CompareCell>;
  /** The workspace's regular files at the newest checkpoint (what a hypothesis edits). */
  listFiles(taskId: string, actor: Actor): Promise<readonly WorkspaceFile[]>;
  /** One file's text at the newest checkpoint; binary and large files are refused. */
  readFile(taskId: string, path: string, actor: Actor): Promise<string>;
  /** The plan's steps and gate evidence; `done` is accepted only on green gates after the last write. */
  milestone(taskId: string, action: MilestoneAction, actor: Actor): Promise<MilestoneResult>;
  /** Notifies whenever a task the actor sees has new events (the task list), until `signal` aborts. */
  taskChanges(
    signal: AbortSignal,
    actor: Actor,
  ): AsyncIterable<{ readonly taskId: string; readonly seq: number }>;
  /**
   * The task's events after `afterSeq`, then live ones as they are persisted, until `signal`
   * aborts. Never skips or repeats a sequence number.
   */
  events(
    taskId: string,
    afterSeq: number,
    signal: AbortSignal,
    actor: Actor,
  ): AsyncIterable<StoredEvent>;
}
