import type { Db } from '../db/client';
import { checkRole, type DatabaseConfig, type ProcessRole } from '../env';
import { InProcessTaskJobs } from './local/in-process-task-jobs';
import type { StepHandler } from './lease-backend';
import { PgBossTaskJobs } from './pg-boss/pg-boss-task-jobs';
import type { TaskJobs } from './task-jobs';

export interface CreateTaskJobsOptions {
  readonly database: DatabaseConfig;
  readonly db: Db;
  readonly role: ProcessRole;
  readonly handler: StepHandler;
  /** Steps this process runs at once. */
  readonly capacity: number;
  readonly workerId?: string | undefined;
  readonly heartbeatMs?: number | undefined;
  readonly workerExpiryMs?: number | undefined;
  /** How often an idle worker looks for jobs sent from other processes (PostgreSQL). */
  readonly pollMs?: number | undefined;
}

/**
 * The job queue adapter for this database: in-process on SQLite (one process, role `all`),
 * pg-boss on PostgreSQL, where a `web` process only schedules and the others are workers.
 */
export function createTaskJobs(options: CreateTaskJobsOptions): TaskJobs {
  const { database, db, role, handler, capacity } = options;
  checkRole(role, database);
  if (database.provider === 'sqlite') {
    return new InProcessTaskJobs({
      db,
      handler,
      concurrency: capacity,
      ...(options.workerId === undefined ? {} : { workerId: options.workerId }),
    });
  }
  return new PgBossTaskJobs({
    db,
    url: database.url,
    ...(options.workerExpiryMs === undefined ? {} : { expiryMs: options.workerExpiryMs }),
    worker:
      role === 'web'
        ? null
        : {
            handler,
            capacity,
            ...(options.workerId === undefined ? {} : { workerId: options.workerId }),
            ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
            ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
          },
  });
}
