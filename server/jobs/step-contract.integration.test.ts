import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/client';
import {
  createPostgresDatabase,
  createSqliteDatabase,
  openMigratedDatabase,
  postgresAvailable,
  queryRows,
  type MigratedDatabase,
  type ScratchDatabase,
} from '../test-support/scratch-databases';
import { abortedWith, deferred, newTask } from '../test-support/queue';
import type { StepOutcome } from './local/job-types';
import type { StepHandler } from './lease-backend';
import { InProcessTaskJobs } from './local/in-process-task-jobs';
import { JobQueue } from './local/job-queue';
import { PgBossTaskJobs } from './pg-boss/pg-boss-task-jobs';
import type { TaskJobs } from './task-jobs';

/**
 * The step contract (see `StepExecutor`), run the same on both modes: the local job table (SQLite,
 * one process) and pg-boss (PostgreSQL, a web process scheduling for workers). Each test is a
 * rule a mode must keep; three of them are bugs the pg-boss mode once had.
 */

/** Conditions, not timings: generous, since the machine is shared. */
const eventually = { timeout: 60_000, interval: 20 };
const quietLogger = { error: vi.fn(), warn: vi.fn() };

interface Mode {
  readonly name: string;
  readonly skip: boolean;
  readonly create: () => Promise<ScratchDatabase>;
  /** A process that runs steps. `lateHeartbeat`: its liveness record goes stale mid-step. */
  worker(database: MigratedDatabase, handler: StepHandler, lateHeartbeat?: boolean): TaskJobs;
  /** A process that only schedules; with SQLite, which is one process, none. */
  scheduler(database: MigratedDatabase): TaskJobs | null;
  /** Takes the lease of the task's running step away behind its process's back. */
  revoke(database: MigratedDatabase, taskId: string): Promise<void>;
}

const postgresUrl = (database: MigratedDatabase) =>
  (database.scratch.config as { url: string }).url;

const modes: Mode[] = [
  {
    name: 'the local job table (SQLite)',
    skip: false,
    create: createSqliteDatabase,
    worker: (database, handler) =>
      new InProcessTaskJobs({
        db: database.db,
        handler,
        concurrency: 2,
        timings: { leaseMs: 600, pollMs: 25, retryDelayMs: () => 200 },
        logger: quietLogger,
      }),
    scheduler: () => null,
    // What a worker that stalled past its lease sees: the job is no longer its own.
    revoke: async (database, taskId) => {
      await new JobQueue(database.db).cancel(taskId);
    },
  },
  {
    name: 'pg-boss (PostgreSQL)',
    skip: !postgresAvailable && process.env.SHADOWBOX_TEST_POSTGRES !== 'required',
    create: createPostgresDatabase,
    worker: (database, handler, lateHeartbeat = false) =>
      new PgBossTaskJobs({
        db: database.db,
        url: postgresUrl(database),
        // A late heartbeat: beats only at start, and counts as gone after 1 s.
        expiryMs: lateHeartbeat ? 1000 : 60_000,
        logger: quietLogger,
        worker: {
          handler,
          capacity: 2,
          pollMs: 500,
          retryDelaySecs: 1,
          ...(lateHeartbeat ? { heartbeatMs: 60_000 } : {}),
        },
      }),
    scheduler: (database) =>
      new PgBossTaskJobs({
        db: database.db,
        url: postgresUrl(database),
        logger: quietLogger,
        worker: null,
      }),
    // What maintenance does to an expired job, or another process to a cancelled one.
    revoke: async (database, taskId) => {
      await queryRows(
        database.scratch.config,
        `UPDATE pgboss.job SET state = 'cancelled' WHERE data->>'taskId' = '${taskId}' AND state = 'active' RETURNING id`,
      );
    },
  },
];

/** Counts each task's steps and the most that ran at once. */
class Steps {
  readonly counts = new Map<string, number>();
  mostAtOnce = 0;
  private inFlight = 0;

  handler(
    run: (taskId: string, n: number, signal: AbortSignal) => Promise<StepOutcome>,
    onGiveUp: StepHandler['onGiveUp'] = () => Promise.resolve(),
  ): StepHandler {
    return {
      step: async (taskId, signal) => {
        const n = (this.counts.get(taskId) ?? 0) + 1;
        this.counts.set(taskId, n);
        this.mostAtOnce = Math.max(this.mostAtOnce, ++this.inFlight);
        try {
          return await run(taskId, n, signal);
        } finally {
          this.inFlight--;
        }
      },
      onGiveUp,
    };
  }

  of(taskId: string): number {
    return this.counts.get(taskId) ?? 0;
  }
}

describe.each(modes)('the step contract on $name', (mode) => {
  let database: MigratedDatabase;
  let db: Db;
  let started: TaskJobs[];

  beforeEach(async () => {
    if (mode.skip) return;
    database = await openMigratedDatabase(mode.create);
    db = database.db;
    started = [];
    quietLogger.error.mockClear();
    quietLogger.warn.mockClear();
  });
  afterEach(async () => {
    if (mode.skip) return;
    await Promise.all(started.map((jobs) => jobs.stop()));
    await database.close();
  });

  async function start(jobs: TaskJobs): Promise<TaskJobs> {
    await jobs.start();
    started.push(jobs);
    return jobs;
  }

  /** The worker and whoever schedules for it: every process that may send a wake. */
  async function cluster(handler: StepHandler, lateHeartbeat = false) {
    const worker = await start(mode.worker(database, handler, lateHeartbeat));
    const other = mode.scheduler(database);
    const scheduler = other === null ? worker : await start(other);
    return { worker, scheduler, senders: [worker, scheduler] };
  }

  it.skipIf(mode.skip)(
    'runs one step of a task at a time; wakes during a step run it once more after',
    async () => {
      const steps = new Steps();
      const gate = deferred();
      const { scheduler, senders } = await cluster(
        steps.handler(async (_taskId, n) => {
          if (n === 1) await gate.promise;
          return { kind: 'park', until: null };
        }),
      );
      const taskId = await newTask(db);
      await scheduler.schedule(taskId);
      await vi.waitFor(() => expect(steps.of(taskId)).toBe(1), eventually);
      for (let i = 0; i < 3; i++) await Promise.all(senders.map((p) => p.schedule(taskId)));
      gate.resolve();
      await vi.waitFor(() => expect(steps.of(taskId)).toBeGreaterThanOrEqual(2), eventually);
      expect(steps.mostAtOnce).toBe(1);
    },
  );

  it.skipIf(mode.skip)('retries a failing step, then gives the task up once', async () => {
    const steps = new Steps();
    const onGiveUp = vi.fn(() => Promise.resolve());
    const { scheduler } = await cluster(
      steps.handler((_taskId, n) => Promise.reject(new Error(`attempt ${n} broke`)), onGiveUp),
    );
    const taskId = await newTask(db);
    await scheduler.schedule(taskId);
    await vi.waitFor(() => expect(onGiveUp).toHaveBeenCalledOnce(), eventually);
    expect(steps.of(taskId)).toBe(3);
    expect(onGiveUp).toHaveBeenCalledWith(
      taskId,
      expect.objectContaining({ message: 'attempt 3 broke' }),
    );
  });

  // Once a bug of pg-boss's mode: a wake fetched while a failure was being recorded, or in place
  // of a retry, started a second chain of attempts (4 to 6 attempts, and two give-ups).
  it.skipIf(mode.skip)(
    'keeps one chain of three attempts while wakes keep arriving from every process',
    async () => {
      const onGiveUp = vi.fn(() => Promise.resolve());
      let attempts = 0;
      const { senders } = await cluster({
        // As `stepTask` does, a given-up task's step has nothing left to do.
        step: () => {
          if (onGiveUp.mock.calls.length > 0) return Promise.resolve({ kind: 'done' });
          attempts++;
          return Promise.reject(new Error('the step broke'));
        },
        onGiveUp,
      });
      const taskId = await newTask(db);
      await senders[0]?.schedule(taskId);
      // Wakes land in every phase of the chain: while a step runs, as its failure is recorded,
      // during the backoff, and as a retry is fetched.
      for (let n = 0; onGiveUp.mock.calls.length === 0; n++) {
        await senders[n % senders.length]?.schedule(taskId);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await vi.waitFor(() => expect(onGiveUp).toHaveBeenCalledOnce(), eventually);
      // Whatever the last wakes started has run by now, and ran no failing step.
      await senders[0]?.schedule(taskId);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(attempts).toBe(3);
      expect(onGiveUp).toHaveBeenCalledOnce();
    },
  );

  it.skipIf(mode.skip)(
    'aborts a cancelled step, counting no attempt; a wake runs the task again',
    async () => {
      const steps = new Steps();
      const onGiveUp = vi.fn(() => Promise.resolve());
      const { scheduler } = await cluster(
        steps.handler(
          (_taskId, n, signal) =>
            n === 1 ? abortedWith(signal) : Promise.resolve({ kind: 'park', until: null }),
          onGiveUp,
        ),
      );
      const taskId = await newTask(db);
      await scheduler.schedule(taskId);
      await vi.waitFor(() => expect(steps.of(taskId)).toBe(1), eventually);
      await scheduler.interrupt(taskId);
      await scheduler.schedule(taskId);
      await vi.waitFor(() => expect(steps.of(taskId)).toBe(2), eventually);
      expect(onGiveUp).not.toHaveBeenCalled();
      expect(quietLogger.warn).not.toHaveBeenCalledWith(
        '[jobs] step failed; it will be retried',
        expect.anything(),
      );
    },
  );

  it.skipIf(mode.skip)('aborts the step of a lease lost behind its back', async () => {
    const aborted = deferred<unknown>();
    const steps = new Steps();
    const { scheduler } = await cluster(
      steps.handler((_taskId, _n, signal) => {
        signal.addEventListener('abort', () => aborted.resolve(signal.reason), { once: true });
        return abortedWith(signal);
      }),
    );
    const taskId = await newTask(db);
    await scheduler.schedule(taskId);
    await vi.waitFor(() => expect(steps.of(taskId)).toBe(1), eventually);
    await mode.revoke(database, taskId);
    expect(String(await aborted.promise)).toMatch(/lost|no longer active/);
  });

  it.skipIf(mode.skip)(
    "drains: a stopping worker aborts its steps, and the task's step runs on the next",
    async () => {
      const steps = new Steps();
      const first = await start(
        mode.worker(
          database,
          steps.handler((_taskId, n, signal) =>
            n === 1 ? abortedWith(signal) : Promise.resolve({ kind: 'done' }),
          ),
        ),
      );
      const taskId = await newTask(db);
      await first.schedule(taskId);
      await vi.waitFor(() => expect(steps.of(taskId)).toBe(1), eventually);
      await first.stop();
      started = started.filter((jobs) => jobs !== first);
      await start(
        mode.worker(
          database,
          steps.handler(() => Promise.resolve({ kind: 'done' })),
        ),
      );
      await vi.waitFor(() => expect(steps.of(taskId)).toBe(2), eventually);
    },
  );

  // Once a bug of pg-boss's mode: a step that outlived its worker's heartbeat had its follow-up
  // dropped (no live worker to place it on), leaving the task with a holder and no job.
  it.skipIf(mode.skip)("keeps a step's follow-up when its worker's heartbeat is late", async () => {
    const steps = new Steps();
    const { scheduler } = await cluster(
      steps.handler(async (_taskId, n) => {
        if (n === 1) await new Promise((resolve) => setTimeout(resolve, 1500));
        return n < 3 ? { kind: 'continue' } : { kind: 'done' };
      }),
      true,
    );
    const taskId = await newTask(db);
    await scheduler.schedule(taskId);
    await vi.waitFor(() => expect(steps.of(taskId)).toBe(3), eventually);
  });
});
