import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../db/client';
import {
  backends,
  openMigratedDatabase,
  type MigratedDatabase,
  type ScratchDatabase,
} from '../../test-support/scratch-databases';
import { isLocalWorkerAlive, JobQueue, newWorkerId } from './job-queue';
import { deadPid, newTask } from '../../test-support/queue';

const LEASE = 30_000;

/** Claims from another process; resolves with the task ids it claimed. */
function spawnClaimer(database: ScratchDatabase['config'], workerId: string) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(import.meta.dirname, 'fixtures', 'claim-jobs.ts'),
      JSON.stringify(database),
      workerId,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  let out = '';
  let signalReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (signalReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith('ready\n')) signalReady();
  });
  const claimed = new Promise<string[]>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (code === 0) resolve(JSON.parse(last) as string[]);
      else reject(new Error(`claim-jobs exited with ${code}: ${out}`));
    });
  });
  return { ready, go: () => child.stdin.end('go\n'), claimed };
}

async function drain(queue: JobQueue, workerId: string): Promise<string[]> {
  const claimed: string[] = [];
  for (let job = await queue.claim(workerId, LEASE); job !== null;) {
    claimed.push(job.taskId);
    job = await queue.claim(workerId, LEASE);
  }
  return claimed;
}

function expectEachOnce(claimed: string[], taskIds: string[]): void {
  expect(claimed).toHaveLength(new Set(claimed).size);
  expect([...claimed].sort()).toEqual([...taskIds].sort());
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(`job queue on ${backend.name}`, () => {
    let database: MigratedDatabase;
    let db: Db;
    let now: number;
    let queue: JobQueue;
    const advance = (ms: number) => (now += ms);
    const at = (ms: number) => new Date(now + ms);

    beforeEach(async () => {
      // A database per test: a queue with a fake clock would claim other tests' jobs.
      database = await openMigratedDatabase(backend.create);
      db = database.db;
      now = Date.parse('2030-06-01T12:00:00.000Z');
      queue = new JobQueue(db, { clock: () => new Date(now) });
    });
    afterEach(async () => {
      await database.close();
    });

    it('creates one job per task however many callers race to enqueue it', async () => {
      const taskId = await newTask(db);
      const results = await Promise.all(Array.from({ length: 10 }, () => queue.enqueue(taskId)));
      expect(results.filter((r) => r === 'created')).toHaveLength(1);
      expect(results.filter((r) => r !== 'created')).toEqual(Array(9).fill('unchanged'));
      expect(await db.job.count({ where: { taskId } })).toBe(1);
      expect(await queue.get(taskId)).toMatchObject({
        state: 'queued',
        runAt: at(0),
        attempts: 0,
        lockedBy: null,
        wakeRequested: false,
      });
      expect(await queue.enqueue(taskId)).toBe('unchanged');
      await expect(queue.enqueue('no-such-task')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('schedules a new job at a later runAt; enqueueing it again makes it due now', async () => {
      const taskId = await newTask(db);
      expect(await queue.enqueue(taskId, { runAt: at(60_000) })).toBe('created');
      expect(await queue.get(taskId)).toMatchObject({ state: 'queued', runAt: at(60_000) });
      expect(await queue.claim('w1', LEASE)).toBeNull();
      // An enqueue of an existing job is a wake-up: it never postpones, so a later time means now.
      expect(await queue.enqueue(taskId, { runAt: at(120_000) })).toBe('woken');
      expect((await queue.get(taskId))?.runAt).toEqual(at(0));
      expect(await queue.enqueue(taskId)).toBe('unchanged');
      expect(await queue.enqueue(taskId, { runAt: at(-1000) })).toBe('woken');
      expect((await queue.get(taskId))?.runAt).toEqual(at(-1000));
      expect((await queue.claim('w1', LEASE))?.taskId).toBe(taskId);
    });

    it('claims the oldest due job first, leases it, and skips excluded tasks', async () => {
      const [late, early, future] = [await newTask(db), await newTask(db), await newTask(db)];
      await queue.enqueue(late, { runAt: at(-1000) });
      await queue.enqueue(early, { runAt: at(-2000) });
      await queue.enqueue(future, { runAt: at(10_000) });

      expect((await queue.claim('w1', LEASE, { excludeTaskIds: [early] }))?.taskId).toBe(late);
      const claimed = await queue.claim('w1', LEASE);
      expect(claimed).toMatchObject({
        taskId: early,
        attempts: 0,
        lastError: null,
        lockedUntil: at(LEASE),
        reclaimed: false,
      });
      expect(await queue.claim('w2', LEASE)).toBeNull();
      expect(await queue.get(early)).toMatchObject({
        state: 'running',
        lockedBy: 'w1',
        lockedUntil: at(LEASE),
        attempts: 0,
      });
      advance(10_000);
      expect((await queue.claim('w2', LEASE))?.taskId).toBe(future);
      await expect(queue.claim('w1', 0)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });

    it('gives each job to exactly one of many concurrent claimers', async () => {
      const taskIds = await Promise.all(Array.from({ length: 40 }, () => newTask(db)));
      for (const taskId of taskIds) await queue.enqueue(taskId, { runAt: at(-1) });
      // PostgreSQL: a second client (its own pool), so claims really run on separate
      // connections. SQLite: one Db per process (see createDb); other processes are the next test.
      const second =
        backend.name === 'PostgreSQL' ? createDb({ database: database.scratch.config }) : db;
      try {
        const queues = [queue, new JobQueue(second, { clock: () => new Date(now) })];
        const claimers = queues.flatMap((q, i) =>
          Array.from({ length: 6 }, (_, j) => drain(q, `w${i}-${j}`)),
        );
        const claimed = (await Promise.all(claimers)).flat();
        // A claimer that lost every race of a round returns null early: take what is left.
        claimed.push(...(await drain(queue, 'sweeper')));
        expectEachOnce(claimed, taskIds);
        const holders = await db.job.findMany({ select: { lockedBy: true, state: true } });
        expect(holders.every((job) => job.state === 'running')).toBe(true);
      } finally {
        if (second !== db) await second.$disconnect();
      }
    });

    it('gives each job to exactly one of three processes claiming at once', async () => {
      const taskIds = await Promise.all(Array.from({ length: 120 }, () => newTask(db)));
      const realQueue = new JobQueue(db);
      for (const taskId of taskIds) await realQueue.enqueue(taskId);
      const children = [1, 2].map((i) => spawnClaimer(database.scratch.config, `child-${i}`));
      await Promise.all(children.map((child) => child.ready));
      for (const child of children) child.go();
      const own = await drain(realQueue, 'parent');
      const theirs = await Promise.all(children.map((child) => child.claimed));
      const rest = await drain(realQueue, 'sweeper');
      expectEachOnce([...own, ...theirs.flat(), ...rest], taskIds);
      const byHolder = await db.job.groupBy({ by: ['lockedBy'], _count: true });
      const counts = new Map(byHolder.map((g) => [g.lockedBy, g._count]));
      expect(counts.get('child-1') ?? 0).toBe(theirs[0]?.length);
      expect(counts.get('child-2') ?? 0).toBe(theirs[1]?.length);
    });

    it('renews a lease, and lets another worker take over once it has expired', async () => {
      const taskId = await newTask(db);
      await queue.enqueue(taskId);
      const a = await queue.claim('worker-a', LEASE);
      expect(a).not.toBeNull();
      const jobId = a?.id ?? '';
      advance(20_000);
      expect(await queue.renew(jobId, 'worker-a', LEASE)).toBe(true); // until +50 s
      expect(await queue.renew(jobId, 'worker-b', LEASE)).toBe(false);
      advance(29_000);
      expect(await queue.claim('worker-b', LEASE)).toBeNull();
      advance(2_000); // a stopped renewing: its lease ended 1 s ago
      const b = await queue.claim('worker-b', LEASE);
      expect(b).toMatchObject({ id: jobId, taskId, reclaimed: true, attempts: 0 });
      // a's late calls change nothing.
      expect(await queue.renew(jobId, 'worker-a', LEASE)).toBe(false);
      expect(await queue.finish(jobId, 'worker-a', { kind: 'done' })).toBe(false);
      expect(await queue.fail(jobId, 'worker-a', new Error('x'), { giveUp: true })).toBe(false);
      expect(await queue.release(jobId, 'worker-a')).toBe(false);
      expect(await queue.get(taskId)).toMatchObject({ state: 'running', lockedBy: 'worker-b' });
      expect(await queue.finish(jobId, 'worker-b', { kind: 'done' })).toBe(true);
      expect(await queue.get(taskId)).toMatchObject({ state: 'done', lockedBy: null });
    });

    it('re-queues a job woken during its step when the step ends, whatever it returned', async () => {
      const taskId = await newTask(db);
      await queue.enqueue(taskId);
      for (const outcome of [{ kind: 'park', until: null }, { kind: 'done' }] as const) {
        const job = await queue.claim('w1', LEASE);
        expect(job?.taskId).toBe(taskId);
        expect(await queue.enqueue(taskId)).toBe('wake-requested');
        expect(await queue.enqueue(taskId)).toBe('wake-requested');
        expect((await queue.get(taskId))?.wakeRequested).toBe(true);
        advance(1000);
        expect(await queue.finish(job?.id ?? '', 'w1', outcome)).toBe(true);
        expect(await queue.get(taskId)).toMatchObject({
          state: 'queued',
          runAt: at(0),
          wakeRequested: false,
          lockedBy: null,
        });
      }
      // Without a wake-up, a park without a deadline waits however long it takes.
      const job = await queue.claim('w1', LEASE);
      expect(await queue.finish(job?.id ?? '', 'w1', { kind: 'park', until: null })).toBe(true);
      expect(await queue.get(taskId)).toMatchObject({ state: 'parked', runAt: null });
      advance(5 * 365 * 24 * 3600_000);
      expect(await queue.claim('w1', LEASE)).toBeNull();
      expect(await queue.enqueue(taskId)).toBe('woken');
      expect((await queue.claim('w1', LEASE))?.taskId).toBe(taskId);
    });

    it('makes a job parked until a time due at that time', async () => {
      const taskId = await newTask(db);
      await queue.enqueue(taskId);
      const job = await queue.claim('w1', LEASE);
      const until = at(60_000);
      expect(await queue.finish(job?.id ?? '', 'w1', { kind: 'park', until })).toBe(true);
      expect(await queue.get(taskId)).toMatchObject({ state: 'parked', runAt: until });
      advance(59_999);
      expect(await queue.claim('w1', LEASE)).toBeNull();
      advance(1);
      expect(await queue.claim('w1', LEASE)).toMatchObject({ taskId, reclaimed: false });
    });

    it('wakes a parked job no later than now, or earlier when asked', async () => {
      const [a, b] = [await newTask(db), await newTask(db)];
      for (const taskId of [a, b]) {
        await queue.enqueue(taskId);
        const job = await queue.claim('w1', LEASE);
        await queue.finish(job?.id ?? '', 'w1', { kind: 'park', until: at(3600_000) });
      }
      expect(await queue.enqueue(a, { runAt: at(600_000) })).toBe('woken');
      expect(await queue.get(a)).toMatchObject({ state: 'queued', runAt: at(0) });
      expect(await queue.enqueue(b, { runAt: at(-5000) })).toBe('woken');
      expect(await queue.get(b)).toMatchObject({ state: 'queued', runAt: at(-5000) });
      expect((await queue.claim('w1', LEASE))?.taskId).toBe(b);
    });

    it('continues right away, retries a failed step at its retry time, and gives up', async () => {
      const taskId = await newTask(db);
      await queue.enqueue(taskId);
      let job = await queue.claim('w1', LEASE);
      advance(1000);
      expect(await queue.finish(job?.id ?? '', 'w1', { kind: 'continue' })).toBe(true);
      expect(await queue.get(taskId)).toMatchObject({ state: 'queued', runAt: at(0) });

      job = await queue.claim('w1', LEASE);
      const boom = new Error('boom 1');
      expect(await queue.fail(job?.id ?? '', 'w1', boom, { retryAt: at(5000) })).toBe(true);
      const failed = await queue.get(taskId);
      expect(failed).toMatchObject({ state: 'queued', runAt: at(5000), attempts: 1 });
      expect(failed?.lastError).toMatch(/^Error: boom 1\n {4}at /);
      advance(4999);
      expect(await queue.claim('w1', LEASE)).toBeNull();
      advance(1);
      job = await queue.claim('w1', LEASE);
      expect(job).toMatchObject({ taskId, attempts: 1 });
      expect(job?.lastError).toMatch(/boom 1/);
      expect(await queue.fail(job?.id ?? '', 'w1', 'boom 2', { giveUp: true })).toBe(true);
      expect(await queue.get(taskId)).toMatchObject({
        state: 'done',
        attempts: 2,
        lastError: 'boom 2',
      });
      expect(await queue.claim('w1', LEASE)).toBeNull();

      // A later wake-up starts afresh; a step that ends normally resets the count too.
      expect(await queue.enqueue(taskId)).toBe('woken');
      expect(await queue.claim('w1', LEASE)).toMatchObject({ taskId, attempts: 0 });
    });

    it('releases jobs held by dead workers of this host at once, and only those', async () => {
      const host = os.hostname();
      const dead = `${host}:${await deadPid()}:0dead`;
      const live = newWorkerId();
      const remote = 'build-box.invalid:4242:beef';
      const holders = [dead, live, remote];
      const taskIds: string[] = [];
      for (const holder of holders) {
        const taskId = await newTask(db);
        taskIds.push(taskId);
        await queue.enqueue(taskId);
        expect((await queue.claim(holder, LEASE))?.taskId).toBe(taskId);
      }
      expect(holders.map(isLocalWorkerAlive)).toEqual([false, true, true]);
      expect(await queue.releaseDeadWorkers(isLocalWorkerAlive)).toEqual([taskIds[0]]);
      expect(await queue.get(taskIds[0] ?? '')).toMatchObject({
        state: 'queued',
        runAt: at(0),
        lockedBy: null,
        lockedUntil: null,
        attempts: 0,
      });
      const next = await queue.claim('w-new', LEASE);
      expect(next).toMatchObject({ taskId: taskIds[0], reclaimed: false });
      expect(await queue.claim('w-new', LEASE)).toBeNull(); // the live leases still hold
      expect(await queue.releaseDeadWorkers(isLocalWorkerAlive)).toEqual([]);
    });

    it('cancels a job: done, and its holder loses the lease', async () => {
      const taskId = await newTask(db);
      await queue.enqueue(taskId);
      const job = await queue.claim('w1', LEASE);
      expect(await queue.enqueue(taskId)).toBe('wake-requested');
      expect(await queue.cancel(taskId)).toBe(true);
      expect(await queue.get(taskId)).toMatchObject({
        state: 'done',
        lockedBy: null,
        wakeRequested: false,
      });
      expect(await queue.renew(job?.id ?? '', 'w1', LEASE)).toBe(false);
      expect(await queue.finish(job?.id ?? '', 'w1', { kind: 'continue' })).toBe(false);
      expect(await queue.get(taskId)).toMatchObject({ state: 'done' });
      advance(LEASE * 2);
      expect(await queue.claim('w2', LEASE)).toBeNull();
      expect(await queue.cancel(await newTask(db))).toBe(false);
    });
  });
}
