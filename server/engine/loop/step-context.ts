import type { Clock } from '../ports';
import type { Fixer } from './fixer';
import type {
  LoopTask,
  ReviewArtifact,
  ReviewerPort,
  SetupPort,
  ShadowPort,
  TaskChanges,
  TaskLoopStore,
  WorkspacePort,
} from './loop-ports';
import type { TaskEvent } from './task-events';

/** How a step ends, for the job runner: finished, run again now, or wait. */
export type StepOutcome =
  | { readonly kind: 'done' }
  | { readonly kind: 'continue' }
  /** Wait for a submission (a wake-up), or until `until` at the latest. */
  | { readonly kind: 'park'; readonly until: Date | null };

export interface LoopDeps {
  readonly store: TaskLoopStore;
  readonly workspaces: WorkspacePort;
  readonly shadows: ShadowPort;
  /** The fixer of tasks whose `fixer` is 'external'. */
  readonly fixer: Fixer;
  /** Other fixers by name (e.g. 'llm'), when configured. */
  readonly fixers?: Readonly<Record<string, Fixer>>;
  readonly clock: Clock;
  /** Comments on every diff put up for review, when configured. */
  readonly reviewer?: ReviewerPort;
  readonly buildReview: (input: {
    readonly diff: Buffer;
    readonly subject: string;
    readonly body: string;
    readonly date: Date;
    readonly commit: string;
  }) => ReviewArtifact;
  /** Installs dependencies before the baseline; without it the baseline runs on the bare tree. */
  readonly setup?: SetupPort;
  /** For the whole setup; default 15 minutes. */
  readonly setupTimeoutMs?: number;
  /** Per test run; the task's remaining wall-clock budget caps it further. */
  readonly runTimeoutMs?: number;
  readonly outputFlushMs?: number;
}

/** What each phase of a step uses of the step: its task, its dependencies, how it ends. */
export interface StepContext {
  readonly deps: LoopDeps;
  readonly taskId: string;
  readonly signal: AbortSignal;
  emit(event: TaskEvent, changes?: TaskChanges): Promise<void>;
  /** Every non-success outcome rolls the worktree back to the baseline commit, then ends the task. */
  end(
    task: LoopTask,
    event: Extract<TaskEvent, { type: 'task.failed' | 'task.cancelled' | 'task.interrupted' }>,
  ): Promise<StepOutcome>;
  /** A step interrupted by its signal: a cancel ends the task; a shutdown leaves it to resume. */
  aborted(task: LoopTask): Promise<StepOutcome>;
  /** A run's timeout: `limit` (default: the per-run one), capped by the budget left. */
  runTimeout(task: LoopTask, limit?: number): number;
  budgetEnd(task: LoopTask): Date | null;
  required<T>(value: T | null, what: string): T;
}

export const done = { kind: 'done' } as const;
export const again = { kind: 'continue' } as const;
