import PgBoss from 'pg-boss';
import type { JobsLogger } from '../lease-backend';
import { STEP_QUEUE_PREFIX, stepQueue } from './step-jobs';

/** pg-boss's own tables live in this schema of the application's database. */
export const BOSS_SCHEMA = 'pgboss';

/** The queue settings of every worker's step queue. */
export const stepQueuePolicy = {
  policy: 'short',
  // Three attempts of a step that throws, 2 s then ~4-8 s apart (pg-boss adds jitter).
  retryLimit: 2,
  retryDelay: 2,
  retryBackoff: true,
  // pg-boss's lease on a running job: past it, maintenance fails the job (for a retry) and the
  // job watch aborts its step. It bounds one step (a whole setup, a baseline, an iteration),
  // so it is long; a dead worker is found by its heartbeat long before (see WorkerMonitor).
  expireInSeconds: 3 * 60 * 60,
} as const satisfies Omit<PgBoss.Queue, 'name'>;

export interface StepBossOptions {
  readonly url: string;
  /** Connections in pg-boss's own pool. */
  readonly poolSize: number;
  /** Runs pg-boss's maintenance (expiring, archiving); workers do, web processes need not. */
  readonly supervise: boolean;
  readonly logger: JobsLogger;
}

/** pg-boss, plus the few reads of its job table that its API has no call for. */
export class StepBoss {
  readonly boss: PgBoss;

  constructor(options: StepBossOptions) {
    this.boss = new PgBoss({
      connectionString: options.url,
      schema: BOSS_SCHEMA,
      max: options.poolSize,
      application_name: 'shadowbox',
      supervise: options.supervise,
      // No cron schedules: the timekeeper would only poll.
      schedule: false,
      migrate: true,
    });
    // An EventEmitter without an `error` listener throws: pg-boss reports pool and loop errors here.
    this.boss.on('error', (error) => options.logger.error('[pg-boss] error', { error }));
  }

  async start(): Promise<void> {
    await this.boss.start();
  }

  /** Creates the worker's step queue (idempotent). */
  async createQueue(workerId: string, retryDelaySecs: number = stepQueuePolicy.retryDelay) {
    const name = stepQueue(workerId);
    // Two workers starting at once can deadlock in pg-boss's create_queue (each ALTERs a new
    // partition to reference the queue table); PostgreSQL aborts one, which may simply try again.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.boss.createQueue(name, { name, ...stepQueuePolicy, retryDelay: retryDelaySecs });
        return;
      } catch (error) {
        const deadlock = (error as { code?: unknown }).code === '40P01';
        if (!deadlock || attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      }
    }
  }

  /** Which of these job ids are `active` (fetched, not yet completed, failed or cancelled). */
  async activeJobs(jobIds: readonly string[]): Promise<ReadonlySet<string>> {
    const rows = (await this.sql(
      `SELECT id FROM ${BOSS_SCHEMA}.job WHERE id = ANY($1::uuid[]) AND state = 'active'`,
      [jobIds],
    )) as { id: string }[];
    return new Set(rows.map((row) => row.id));
  }

  /** The task's active step jobs, in any worker's queue. */
  async activeJobsOfTask(taskId: string): Promise<{ queue: string; id: string }[]> {
    const rows = (await this.sql(
      `SELECT name AS queue, id FROM ${BOSS_SCHEMA}.job
       WHERE starts_with(name, $1) AND state = 'active' AND data->>'taskId' = $2`,
      [STEP_QUEUE_PREFIX, taskId],
    )) as { queue: string; id: string }[];
    return rows;
  }

  /**
   * Makes the task's jobs waiting in `queue` for a retry due now; their ids. (pg-boss's API has
   * no call for it: `retry` is for failed jobs, `resume` for cancelled ones.)
   */
  async hurryRetries(queue: string, taskId: string): Promise<string[]> {
    const rows = (await this.sql(
      `UPDATE ${BOSS_SCHEMA}.job SET start_after = now()
       WHERE name = $1 AND state = 'retry' AND data->>'taskId' = $2
       RETURNING id`,
      [queue, taskId],
    )) as { id: string }[];
    return rows.map((row) => row.id);
  }

  /** Jobs not yet ended (waiting, retrying or active) in the step queues of these workers. */
  async unfinishedJobs(
    workerIds: readonly string[],
  ): Promise<{ queue: string; id: string; taskId: string }[]> {
    if (workerIds.length === 0) return [];
    const rows = (await this.sql(
      `SELECT name AS queue, id, data->>'taskId' AS "taskId" FROM ${BOSS_SCHEMA}.job
       WHERE name = ANY($1::text[]) AND state < 'completed'`,
      [workerIds.map(stepQueue)],
    )) as { queue: string; id: string; taskId: string }[];
    return rows;
  }

  /**
   * Cancels the waiting jobs of `key` in `queue` due after `at`: a park's timer replaces a later
   * one (the queue's `short` policy would otherwise keep the later one and drop the new one).
   */
  async cancelLaterJobs(queue: string, key: string, at: Date): Promise<void> {
    const rows = (await this.sql(
      `SELECT id FROM ${BOSS_SCHEMA}.job
       WHERE name = $1 AND singleton_key = $2 AND state = 'created' AND start_after > $3`,
      [queue, key, at],
    )) as { id: string }[];
    if (rows.length > 0)
      await this.boss.cancel(
        queue,
        rows.map((row) => row.id),
      );
  }

  /** Cancels jobs (grouped by queue, as pg-boss's `cancel` wants them). */
  async cancel(jobs: readonly { queue: string; id: string }[]): Promise<void> {
    const byQueue = new Map<string, string[]>();
    for (const job of jobs) byQueue.set(job.queue, [...(byQueue.get(job.queue) ?? []), job.id]);
    for (const [queue, ids] of byQueue) await this.boss.cancel(queue, ids);
  }

  /** Rows as pg returns them; each caller states the columns it selected. */
  private async sql(text: string, values: unknown[]): Promise<unknown[]> {
    const result: { rows: unknown[] } = await this.boss.getDb().executeSql(text, values);
    return result.rows;
  }
}
