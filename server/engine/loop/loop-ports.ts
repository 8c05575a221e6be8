import type { RunLimits } from '../sandbox/run-limits';
import type { EventSink } from '../ports';
import type { IntakeEvent } from '../intake/intake-events';
import type { ShadowEvent } from '../shadow/shadow-events';
import type { ShadowRunReport } from '../shadow/shadow-report';
import type { ShadowRunRequest } from '../shadow/shadow-request';
import type { ShadowMode } from '../shadow/executor';
import type { DiffFlags } from '../review/diff-flags';
import type { ReviewArtifact } from '../review/review-artifact';

export type { ReviewArtifact };
import type {
  CandidateHypothesis,
  FixerSpend,
  RejectedHypothesis,
  RepositoryView,
  ReviewRequest,
  TaskBrief,
  ThreadReply,
} from './fixer';
import type { EgressRecord, RunSummary, SetupRunResult, TaskEvent } from './task-events';

export type { SetupRunResult };
import type { TaskStatus } from './task-status';

/** Where a task's code comes from, as the loop needs it to prepare the workspace. */
export type LoopSource =
  | { readonly kind: 'git'; readonly url: string; readonly ref: string | null }
  | { readonly kind: 'archive'; readonly name: string };

/** A model that reads the diff under review with the test evidence and comments on it. */
export interface ReviewerPort {
  readonly name: string;
  review(
    input: {
      /** What the change is for (untrusted text, shown to the model as data). */
      readonly task: TaskBrief;
      readonly diff: string;
      readonly flags: DiffFlags;
      readonly testCommand: readonly string[];
      readonly baseline: RunSummary | null;
      readonly final: RunSummary | null;
    },
    signal: AbortSignal,
  ): Promise<{ readonly verdict: string; readonly comment: string; readonly spend: FixerSpend }>;
}

/** What one step of the loop reads about its task. */
export interface LoopTask {
  readonly id: string;
  readonly status: TaskStatus;
  readonly source: LoopSource;
  /** What the task is for (a line) and the bug report behind it (Markdown; "" when none). */
  readonly title: string;
  readonly problem: string;
  readonly issueUrl: string | null;
  readonly testCommand: readonly string[];
  readonly maxIterations: number;
  readonly hypothesesPerIteration: number;
  readonly hypothesisWaitMs: number;
  readonly maxWallClockMs: number;
  readonly startedAt: Date | null;
  /** Set once intake made the task's bare repository (at creation for archives). */
  readonly sourceId: string | null;
  /** Who the task belongs to: its person, and its team when it is a team's (the cache's scope). */
  readonly ownerId: string | null;
  readonly teamId: string | null;
  readonly baselineCommit: string | null;
  readonly checkpointSha: string | null;
  readonly iterationCount: number;
  readonly cancelRequestedBy: string | null;
  /**
   * Who asked to send the newest checkpoint to review now rather than wait for more hypotheses;
   * the step honours it while the task waits for hypotheses, and a review clears it.
   */
  readonly reviewNowRequestedBy: string | null;
  /** external | llm: which fixer proposes the hypotheses. */
  readonly fixer: string;
  readonly allowTestEdits: boolean;
  readonly maxTokens: number | null;
  readonly tokensUsed: number;
  /** The task's own caps per run (the server's default fills what it leaves out). */
  readonly limits: Partial<RunLimits>;
  /** The task's own setup commands; null: detected from the tree. */
  readonly setupCommands: readonly (readonly string[])[] | null;
  /** Run before the test command in every run; null: none. */
  readonly buildCommand: readonly string[] | null;
  /** Test ids that may keep failing: the task is green without them. */
  readonly knownFailures: readonly string[];
  /** What the setup did, once it ran. */
  readonly setup: SetupRecord | null;
  /** The plan's steps that are not done yet, with their gate commands. */
  readonly openSteps: readonly {
    readonly index: number;
    readonly gates: readonly (readonly string[])[];
  }[];
  /** The diff of the newest green checkpoint, once one was put up for review. */
  readonly diffSha256: string | null;
  /** The newest iteration, if one was started. */
  readonly currentIteration: {
    readonly index: number;
    readonly startedAt: Date;
    /** Whether it took its hypotheses (it was running them when a step ended). */
    readonly taken: boolean;
    /** The review round it answers (a reviewer requested changes); 0: an ordinary iteration. */
    readonly reviewRound: number;
  } | null;
  /** In a review round: what the reviewers asked (their summaries and open threads). */
  readonly review: ReviewRequest | null;
  /** The baseline run, once there is one. */
  readonly baselineRun: RunSummary | null;
  /** The newest complete test run (baseline or an iteration's best), for the fixer. */
  readonly lastRun: RunSummary | null;
  /**
   * The run of the newest checkpoint, with its test cases: the baseline, or the winner of the
   * newest green iteration. Hypotheses are judged against it.
   */
  readonly referenceRun: RunSummary | null;
  /** Tests the newest finished iteration's hypotheses broke, by id. */
  readonly recentlyBroken: readonly string[];
}

/** What a task's setup did, as the task keeps it. */
export interface SetupRecord {
  readonly commands: readonly (readonly string[])[];
  readonly detected: boolean;
  readonly reasons: readonly string[];
  readonly cached: boolean;
  readonly durationMs: number;
  readonly egress: readonly EgressRecord[];
  /** Variables every later run of the workspace gets (e.g. module caches kept in the worktree). */
  readonly env: Readonly<Record<string, string>>;
  /**
   * The build step detected because setup builds (CMake, Meson, make): every run rebuilds with it
   * before its tests when the task gives no build command. Absent in records made before it.
   */
  readonly build?: BuildStep | null;
}

/** A detected build step, with why (shown on the task). */
export interface BuildStep {
  readonly argv: readonly string[];
  readonly reason: string;
}

/** The setup a task will run: its own commands, or what the tree says it needs. */
export interface SetupPlan {
  readonly commands: readonly (readonly string[])[];
  readonly detected: boolean;
  readonly reasons: readonly string[];
  /** Workspace-relative paths setup and builds write; never part of a change. */
  readonly outputs: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The build step detected for a task that gives none; null: none needed or given. */
  readonly build?: BuildStep | null;
}

/**
 * Installs a task's dependencies once, in its worktree, in the sandbox, with network only through
 * the egress allowlist; restores an identical earlier setup from the cache instead when it can.
 */
export interface SetupPort {
  plan(task: LoopTask, workspace: LoopWorkspace): Promise<SetupPlan>;
  run(
    task: LoopTask,
    workspace: LoopWorkspace,
    plan: SetupPlan,
    io: {
      readonly onLine: (line: string) => void;
      readonly signal: AbortSignal;
      readonly timeoutMs: number;
    },
  ): Promise<SetupRunResult>;
}

/** Columns that change along with an event, in the same transaction. */
export interface TaskChanges {
  readonly sourceId?: string;
  readonly baselineCommit?: string;
  readonly checkpointSha?: string;
  readonly worktreePath?: string;
  readonly startedAt?: Date;
  readonly finishedAt?: Date;
  readonly error?: string | null;
  readonly setup?: SetupRecord;
  readonly reviewPartial?: boolean;
  readonly stillFailing?: readonly string[];
  readonly reviewRounds?: number;
  readonly reviewNowRequestedBy?: null;
}

/** The one hypothesis run of an iteration, as stored. */
export interface IterationRecord {
  readonly index: number;
  readonly report: ShadowRunReport;
  readonly command: readonly string[];
  readonly checkpointSha: string | null;
  readonly green: boolean;
  /** Hypotheses a fixer produced that could not run, recorded as failed with their reason. */
  readonly rejected: readonly RejectedHypothesis[];
}

/**
 * The loop's persistence port. Each call commits its rows and the event announcing them in one
 * transaction (the event's status change applied through `reduceTask`), then publishes the event.
 */
export interface TaskLoopStore {
  load(taskId: string): Promise<LoopTask>;
  emit(taskId: string, event: TaskEvent, changes?: TaskChanges): Promise<void>;
  recordBaseline(
    taskId: string,
    command: readonly string[],
    mode: ShadowMode,
    run: RunSummary,
  ): Promise<void>;
  beginIteration(taskId: string, index: number): Promise<void>;
  pendingHypotheses(taskId: string): Promise<readonly CandidateHypothesis[]>;
  /** Moves inbox hypotheses into the iteration and stores new ones (from generative fixers). */
  takeHypotheses(
    taskId: string,
    index: number,
    hypotheses: readonly CandidateHypothesis[],
  ): Promise<void>;
  /** The hypotheses an interrupted iteration had taken, to run them again. */
  takenHypotheses(taskId: string, index: number): Promise<readonly CandidateHypothesis[]>;
  recordIteration(taskId: string, record: IterationRecord): Promise<void>;
  recordReview(
    taskId: string,
    artifact: ReviewArtifact,
    evidence: { readonly partial: boolean; readonly stillFailing: readonly string[] },
  ): Promise<void>;
  /** Gate commands' results on one checkpoint (evidence for `milestone done`). */
  recordGateRuns(
    taskId: string,
    commitSha: string,
    mode: ShadowMode,
    results: readonly GateResult[],
  ): Promise<void>;
  /** A reviewer model's verdict and comment on the diff under review (never an approval). */
  recordReviewerComment(
    taskId: string,
    comment: {
      readonly reviewer: string;
      readonly verdict: string;
      readonly comment: string;
      readonly diffSha256: string;
    },
  ): Promise<void>;
  /** Adds a fixer's token use and estimated cost to the task's budget. */
  recordSpend(taskId: string, spend: FixerSpend): Promise<void>;
  /** A fixer's answers to the review round's open threads, posted in them as `author`. */
  recordThreadReplies(
    taskId: string,
    replies: readonly ThreadReply[],
    author: string,
  ): Promise<void>;
}

export interface GateResult {
  readonly step: number;
  readonly gate: number;
  readonly argv: readonly string[];
  readonly run: RunSummary;
}

/** The event announcing gate results (one shape for every store). */
export function gatesFinished(
  commitSha: string,
  results: readonly GateResult[],
): Extract<TaskEvent, { type: 'gates.finished' }> {
  return {
    type: 'gates.finished',
    commitSha,
    gates: results.map((r) => ({
      step: r.step,
      gate: r.gate,
      argv: r.argv,
      green: r.run.green,
      exitCode: r.run.exitCode,
    })),
  };
}

/** A task's checkout, as the loop uses it. */
export interface LoopWorkspace {
  readonly path: string;
  /** Commits exactly `paths` (written or deleted) and returns the commit id. */
  checkpoint(label: string, paths: readonly string[]): Promise<string>;
  /**
   * Makes the worktree the tree of `sha`. Ignored files (setup outputs, the baseline's build
   * outputs) stay unless `keepIgnored` is false.
   */
  rollbackTo(sha: string, options?: { readonly keepIgnored?: boolean }): Promise<void>;
  diffBetween(from: string, to: string): Promise<Buffer>;
}

export type PreparedWorkspace =
  | {
      readonly ok: true;
      readonly sourceId: string;
      readonly baselineCommit: string;
      readonly workspace: LoopWorkspace;
    }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** What `ensure` had to do to put a task's workspace on this disk; null in `restored`: nothing. */
export interface WorkspaceRestore {
  /** The source's repository was not on this disk and was made from the stored bundles. */
  readonly repository: boolean;
  /** Checkpoint bundles (and the source's own) applied to the repository. */
  readonly bundles: number;
  /** 'created': a fresh worktree at the checkpoint; 'reset': the worktree was at another commit. */
  readonly worktree: 'created' | 'reset' | 'kept';
}

export interface EnsuredWorkspace {
  readonly workspace: LoopWorkspace;
  readonly restored: WorkspaceRestore | null;
  /**
   * The worktree was made here after the task's setup had run elsewhere (or before a crash), so
   * it lacks the setup's outputs until `setupRestored`; this survives a restart.
   */
  readonly setupPending: boolean;
}

export interface WorkspacePort {
  /** Intake (policy-checked) and a fresh worktree; leftovers of an interrupted attempt removed. */
  prepare(task: LoopTask, events: EventSink<IntakeEvent>): Promise<PreparedWorkspace>;
  open(task: LoopTask): Promise<LoopWorkspace>;
  /**
   * The task's repository and worktree on this disk at its checkpoint: rebuilt from the stored
   * bundles where this disk lacks them (another worker ran the task), moved to the checkpoint
   * where the worktree is at an older one. `setupRan`: the task's setup ran already, so a worktree
   * made now is `setupPending`.
   */
  ensure(task: LoopTask, options: { readonly setupRan: boolean }): Promise<EnsuredWorkspace>;
  /** The setup ran again in a worktree `ensure` made: it is no longer pending. */
  setupRestored(task: LoopTask): Promise<void>;
  /** The task's files at its newest checkpoint, for fixers. */
  repository(task: LoopTask): RepositoryView;
}

export interface ShadowPort {
  readonly mode: ShadowMode;
  readonly fallbackReason: string | null;
  run(request: ShadowRunRequest, events: EventSink<ShadowEvent>): Promise<ShadowRunReport>;
}
