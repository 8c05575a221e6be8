/**
 * Running task steps, in one of two modes: one process on SQLite (the job table, steps run here)
 * or many on PostgreSQL (pg-boss; a web process schedules, registered workers run the steps where
 * each task's worktree lives). The step contract is written once, in `step-executor.ts`, over a
 * lease backend per mode; `cluster/` is what processes that share only PostgreSQL need besides
 * (events from each other, git data as bundles).
 */
export { createTaskJobs, type CreateTaskJobsOptions } from './create-task-jobs';
export type { TaskJobs } from './task-jobs';
export { describeError } from './describe-error';
export { openSharedStorage, type SharedStorage } from './cluster/shared-storage';
export { listWorkers, type WorkerView } from './workers/list-workers';
export { workerFor, type VisibleWorker } from './workers/worker-visibility';
