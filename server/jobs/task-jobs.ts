import type { TaskScheduler } from '../tasks/task-service-deps';

/**
 * The job queue port: how the runtime hands task steps to whatever runs them. Two adapters:
 * `InProcessTaskJobs` (SQLite, the embedded default: the `Job` table and its leases, steps run
 * in this process) and `PgBossTaskJobs` (PostgreSQL: pg-boss, steps run on registered workers,
 * placed where the task's worktree lives).
 */
export interface TaskJobs extends TaskScheduler {
  /** Starts running steps (a process that runs tasks); resumes what a crash interrupted. */
  start(): Promise<void>;
  /** Stops taking steps, aborts the running ones and hands them back; closes the queue. */
  stop(): Promise<void>;
  /** This process's worker id; null when it runs no tasks (a web process). */
  readonly workerId: string | null;
}
