import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../db/client';
import {
  createPostgresDatabase,
  openMigratedDatabase,
  postgresAvailable,
  queryRows,
  type MigratedDatabase,
} from '../../test-support/scratch-databases';
import { abortedWith, deferred, newTask } from '../../test-support/queue';
import type { StepHandler } from '../lease-backend';
import type { StepOutcome } from '../local/job-types';
import { PgBossTaskJobs, type PgBossWorkerOptions } from './pg-boss-task-jobs';
import { stepQueue } from './step-jobs';

/** Conditions, not timings: generous, since the machine is shared. */
const eventually = { timeout: 60_000, interval: 25 };
const quietLogger = { error: vi.fn(), warn: vi.fn() };
const skip = !postgresAvailable && process.env.SHADOWBOX_TEST_POSTGRES !== 'required';

/** Records every step: which worker ran it, and how many steps of the task ran at once. */
class StepLog {
  readonly steps: { taskId: string; workerId: string }[] = [];
  mostAtOnce = 0;
  private readonly inFlight = new Map<string, number>();

  handler(workerId: string, run: (taskId: string, signal: AbortSignal) => Promise<StepOutcome>) {
    return {
      step: async (taskId: string, signal: AbortSignal) => {
        const now = (this.inFlight.get(taskId) ?? 0) + 1;
        this.inFlight.set(taskId, now);
        this.mostAtOnce = Math.max(this.mostAtOnce, now);
        this.steps.push({ taskId, workerId });
        try {
          return await run(taskId, signal);
        } finally {
          this.inFlight.set(taskId, (this.inFlight.get(taskId) ?? 1) - 1);
        }
      },
      onGiveUp: () => Promise.resolve(),
    } satisfies StepHandler;
  }

  of(taskId: string) {
    return this.steps.filter((step) => step.taskId === taskId);
  }
}

// The step rules themselves (one step at a time, attempts and give-up, cancels, lost leases,
// drains) are the contract suite's, run on both modes: step-contract.integration.test.ts.
describe.skipIf(skip)('pg-boss task jobs on PostgreSQL', () => {
  let database: MigratedDatabase;
  let db: Db;
  let url: string;
  let started: PgBossTaskJobs[];

  beforeEach(async () => {
    database = await openMigratedDatabase(createPostgresDatabase);
    db = database.db;
    url = (database.scratch.config as { url: string }).url;
    started = [];
    quietLogger.error.mockClear();
    quietLogger.warn.mockClear();
  });
  afterEach(async () => {
    await Promise.all(started.map((jobs) => jobs.stop()));
    await database.close();
  });

  async function start(
    worker: (Partial<PgBossWorkerOptions> & { handler: StepHandler }) | null,
    expiryMs = 60_000,
  ): Promise<PgBossTaskJobs> {
    const jobs = new PgBossTaskJobs({
      db,
      url,
      expiryMs,
      logger: quietLogger,
      worker: worker === null ? null : { capacity: 2, pollMs: 500, retryDelaySecs: 1, ...worker },
    });
    await jobs.start();
    started.push(jobs);
    return jobs;
  }

  it("installs pg-boss's schema in the application's database", async () => {
    await start(null);
    const rows = await queryRows(
      database.scratch.config,
      "SELECT schema_name FROM information_schema.schemata WHERE schema_name = 'pgboss'",
    );
    expect(rows).toHaveLength(1);
  });

  it('runs a task on one worker, one step at a time however often it is woken', async () => {
    const log = new StepLog();
    const runs = new Map<string, number>();
    const gate = deferred();
    const run = async (taskId: string): Promise<StepOutcome> => {
      const n = (runs.get(taskId) ?? 0) + 1;
      runs.set(taskId, n);
      if (n === 1) await gate.promise;
      return n < 3 ? { kind: 'continue' } : { kind: 'done' };
    };
    const a = await start({ workerId: 'worker-a', handler: log.handler('worker-a', run) });
    const b = await start({ workerId: 'worker-b', handler: log.handler('worker-b', run) });
    const web = await start(null);
    const taskId = await newTask(db);
    await web.schedule(taskId);
    await vi.waitFor(() => expect(log.of(taskId)).toHaveLength(1), eventually);
    // Wake-ups from every process while the first step runs: absorbed, then one more step.
    await Promise.all([a, b, web, a, b, web].map((jobs) => jobs.schedule(taskId)));
    gate.resolve();
    await vi.waitFor(() => expect(runs.get(taskId)).toBeGreaterThanOrEqual(3), eventually);
    const holder = (await db.task.findUniqueOrThrow({ where: { id: taskId } })).workerId;
    expect(['worker-a', 'worker-b']).toContain(holder);
    expect(new Set(log.of(taskId).map((step) => step.workerId))).toEqual(new Set([holder]));
    expect(log.mostAtOnce).toBe(1);
  });

  it('spreads new tasks over the live workers', async () => {
    const log = new StepLog();
    const done = () => Promise.resolve<StepOutcome>({ kind: 'done' });
    await start({ workerId: 'worker-a', handler: log.handler('worker-a', done) });
    await start({ workerId: 'worker-b', handler: log.handler('worker-b', done) });
    const web = await start(null);
    const taskIds = [await newTask(db), await newTask(db), await newTask(db), await newTask(db)];
    for (const taskId of taskIds) await web.schedule(taskId);
    const placed = await db.task.groupBy({ by: ['workerId'], _count: { _all: true } });
    expect(Object.fromEntries(placed.map((g) => [g.workerId, g._count._all]))).toEqual({
      'worker-a': 2,
      'worker-b': 2,
    });
    await vi.waitFor(() => expect(log.steps).toHaveLength(4), eventually);
  });

  it("a wake during a failed step's backoff runs the retry now, never a second chain of attempts", async () => {
    const onGiveUp = vi.fn(() => Promise.resolve());
    let attempts = 0;
    const worker = await start({
      retryDelaySecs: 30,
      handler: {
        step: () => {
          attempts++;
          return Promise.reject(new Error('the step broke'));
        },
        onGiveUp,
      },
    });
    const taskId = await newTask(db);
    await worker.schedule(taskId);
    // Each wake lands in a backoff of 30 s or more: only the wakes can make the attempts.
    await vi.waitFor(() => expect(attempts).toBe(1), eventually);
    await vi.waitFor(() => expect(retryingJobs(worker)).resolves.toBe(1), eventually);
    await worker.schedule(taskId);
    await vi.waitFor(() => expect(attempts).toBe(2), eventually);
    await vi.waitFor(() => expect(retryingJobs(worker)).resolves.toBe(1), eventually);
    await worker.schedule(taskId);
    await vi.waitFor(() => expect(onGiveUp).toHaveBeenCalledOnce(), eventually);
    expect(attempts).toBe(3);
    // A second chain would still have a job waiting for its retry.
    expect(await unfinishedJobs(worker)).toBe(0);
  });

  async function jobsIn(worker: PgBossTaskJobs, states: string): Promise<number> {
    const rows = await queryRows(
      database.scratch.config,
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = '${stepQueue(worker.workerId ?? '')}' AND state IN (${states})`,
    );
    return (rows[0] as { n: number }).n;
  }
  const retryingJobs = (worker: PgBossTaskJobs) => jobsIn(worker, "'retry'");
  const unfinishedJobs = (worker: PgBossTaskJobs) => jobsIn(worker, "'created', 'retry', 'active'");

  it('parks until a time, yet a wake-up runs the step at once', async () => {
    const log = new StepLog();
    let n = 0;
    const far = new Date(Date.now() + 60 * 60 * 1000);
    const run = (): Promise<StepOutcome> => {
      n++;
      // 1: park for an hour; 2 (woken): park for a moment; 3 (its timer): done.
      if (n === 1) return Promise.resolve({ kind: 'park', until: far });
      if (n === 2) return Promise.resolve({ kind: 'park', until: new Date(Date.now() + 1000) });
      return Promise.resolve({ kind: 'done' });
    };
    const worker = await start({ handler: log.handler('w', run) });
    const taskId = await newTask(db);
    await worker.schedule(taskId);
    await vi.waitFor(() => expect(n).toBe(1), eventually);
    await worker.schedule(taskId);
    await vi.waitFor(() => expect(n).toBe(3), eventually);
    expect(log.mostAtOnce).toBe(1);
  });

  it("moves a dead worker's tasks, and aborts the step of a worker wrongly thought dead", async () => {
    const log = new StepLog();
    const stalledAborted = deferred();
    // A worker that died with a task placed on it and a job waiting in its queue: the first
    // live worker's monitor (A's) adopts the task.
    await db.worker.create({
      data: { id: 'worker-dead', host: 'gone', pid: 1, capacity: 2, heartbeatAt: new Date(0) },
    });
    const waiting = await newTask(db);
    await db.task.update({ where: { id: waiting }, data: { workerId: 'worker-dead' } });
    // A: beats once, then not for a minute (a stall); its steps run until aborted.
    const a = await start({
      workerId: 'worker-a',
      heartbeatMs: 60_000,
      handler: log.handler('worker-a', async (_taskId, signal) => {
        signal.addEventListener('abort', () => stalledAborted.resolve(), { once: true });
        return abortedWith(signal);
      }),
    });
    const running = await newTask(db);
    await a.schedule(running);
    await vi.waitFor(() => {
      expect(log.of(running)).toHaveLength(1);
      expect(log.of(waiting)).toHaveLength(1);
    }, eventually);
    await db.worker.update({ where: { id: 'worker-a' }, data: { heartbeatAt: new Date(0) } });

    await start(
      {
        workerId: 'worker-b',
        heartbeatMs: 200,
        handler: log.handler('worker-b', () => Promise.resolve({ kind: 'done' })),
      },
      5000,
    );
    await stalledAborted.promise;
    await vi.waitFor(() => {
      expect(log.of(running).map((s) => s.workerId)).toEqual(['worker-a', 'worker-b']);
      expect(log.of(waiting).map((s) => s.workerId)).toEqual(['worker-a', 'worker-b']);
    }, eventually);
    const workers = await db.worker.findMany({ orderBy: { id: 'asc' } });
    expect(workers.map((w) => [w.id, w.stoppedAt !== null])).toEqual([
      ['worker-a', true],
      ['worker-b', false],
      ['worker-dead', true],
    ]);
    const tasks = await db.task.findMany({ where: { id: { in: [running, waiting] } } });
    expect(tasks.map((t) => t.workerId)).toEqual(['worker-b', 'worker-b']);
    const left = await queryRows(
      database.scratch.config,
      `SELECT id FROM pgboss.job WHERE name IN ('${stepQueue('worker-a')}', '${stepQueue('worker-dead')}') AND state < 'completed'`,
    );
    expect(left).toEqual([]);
  });
  // The polls below are a minute long: each step must start (or stop) long before either.
  it("a job sent from a web process runs at once, not at its worker's next poll", async () => {
    const log = new StepLog();
    const done = () => Promise.resolve<StepOutcome>({ kind: 'done' });
    await start({ workerId: 'worker-a', pollMs: 60_000, handler: log.handler('worker-a', done) });
    const web = await start(null);
    // The worker's fetch loops found nothing and sleep for their poll.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const taskId = await newTask(db);
    await web.schedule(taskId);
    await vi.waitFor(() => expect(log.of(taskId)).toHaveLength(1), { timeout: 15_000 });
  });

  it("a cancel from a web process aborts the running step at once, not at the watch's next look", async () => {
    const running = deferred();
    let reason: unknown;
    const step = async (_taskId: string, signal: AbortSignal): Promise<StepOutcome> => {
      running.resolve();
      await abortedWith(signal).catch((error: unknown) => (reason = error));
      return { kind: 'done' };
    };
    await start({
      workerId: 'worker-a',
      watchMs: 60_000,
      handler: { step, onGiveUp: () => Promise.resolve() },
    });
    const web = await start(null);
    const taskId = await newTask(db);
    await web.schedule(taskId);
    await running.promise;
    await web.interrupt(taskId);
    await vi.waitFor(() => expect(reason).toBeInstanceOf(Error), { timeout: 15_000 });
  });
});
