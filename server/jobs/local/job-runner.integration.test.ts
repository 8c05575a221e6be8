import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../db/client';
import {
  backends,
  openMigratedDatabase,
  type MigratedDatabase,
} from '../../test-support/scratch-databases';
import { JobQueue, newWorkerId, type StepOutcome } from './job-queue';
import type { StepHandler } from '../lease-backend';
import { JobRunner, type JobRunnerOptions } from './job-runner';
import { abortedWith, deferred, newTask, type Deferred } from '../../test-support/queue';

/** Conditions, not timings: generous, since the machine is shared. */
const eventually = { timeout: 60_000, interval: 10 };

const quietLogger = { error: vi.fn(), warn: vi.fn() };

for (const backend of backends) {
  describe.skipIf(backend.skip)(`job runner on ${backend.name}`, () => {
    let database: MigratedDatabase;
    let db: Db;
    let queue: JobQueue;
    let runners: JobRunner[];

    beforeEach(async () => {
      database = await openMigratedDatabase(backend.create);
      db = database.db;
      queue = new JobQueue(db);
      runners = [];
      quietLogger.error.mockClear();
      quietLogger.warn.mockClear();
    });
    afterEach(async () => {
      await Promise.all(runners.map((runner) => runner.stop()));
      await database.close();
    });

    function startRunner(
      handler: Partial<StepHandler>,
      options: Partial<JobRunnerOptions> = {},
    ): JobRunner {
      const runner = new JobRunner({
        queue,
        workerId: newWorkerId(),
        pollMs: 25,
        retryDelayMs: () => 0,
        logger: quietLogger,
        ...options,
        handler: {
          step: handler.step ?? (() => Promise.resolve({ kind: 'done' })),
          onGiveUp: handler.onGiveUp ?? (() => Promise.resolve()),
        },
      });
      runners.push(runner);
      runner.start();
      return runner;
    }

    async function enqueueTasks(count: number): Promise<string[]> {
      const taskIds: string[] = [];
      for (let i = 0; i < count; i++) {
        const taskId = await newTask(db);
        await queue.enqueue(taskId);
        taskIds.push(taskId);
      }
      return taskIds;
    }

    async function expectJob(taskId: string, expected: Record<string, unknown>): Promise<void> {
      await vi.waitFor(async () => {
        expect(await queue.get(taskId)).toMatchObject(expected);
      }, eventually);
    }

    it('never runs more steps at once than its concurrency', async () => {
      const taskIds = await enqueueTasks(3);
      const gates = new Map<string, Deferred<void>>(taskIds.map((id) => [id, deferred()]));
      const started: string[] = [];
      let inFlight = 0;
      let mostInFlight = 0;
      const runner = startRunner(
        {
          step: async (taskId) => {
            started.push(taskId);
            mostInFlight = Math.max(mostInFlight, ++inFlight);
            await gates.get(taskId)?.promise;
            inFlight--;
            return { kind: 'done' };
          },
        },
        { concurrency: 2 },
      );
      await vi.waitFor(() => expect(started).toHaveLength(2), eventually);
      // The third job is due: give the runner many chances to (wrongly) start it.
      for (let i = 0; i < 10; i++) {
        runner.wake();
        await sleep(20);
      }
      expect(started).toHaveLength(2);
      expect(runner.running().sort()).toEqual([...started].sort());
      const first = started[0] ?? '';
      gates.get(first)?.resolve();
      await vi.waitFor(() => expect(started).toHaveLength(3), eventually);
      for (const gate of gates.values()) gate.resolve();
      for (const taskId of taskIds) await expectJob(taskId, { state: 'done' });
      expect(mostInFlight).toBe(2);
      expect([...started].sort()).toEqual([...taskIds].sort());
    });

    it('runs the steps of a task one at a time across runners, continuing until done', async () => {
      const taskIds = await enqueueTasks(8);
      const stepsOf = new Map<string, number>();
      const inFlightOf = new Map<string, number>();
      let overlaps = 0;
      const step = async (taskId: string): Promise<StepOutcome> => {
        const inFlight = (inFlightOf.get(taskId) ?? 0) + 1;
        inFlightOf.set(taskId, inFlight);
        if (inFlight > 1) overlaps++;
        await sleep(Math.random() * 5);
        inFlightOf.set(taskId, (inFlightOf.get(taskId) ?? 1) - 1);
        const steps = (stepsOf.get(taskId) ?? 0) + 1;
        stepsOf.set(taskId, steps);
        return steps < 3 ? { kind: 'continue' } : { kind: 'done' };
      };
      startRunner({ step }, { concurrency: 3 });
      startRunner({ step }, { concurrency: 3 });
      for (const taskId of taskIds) await expectJob(taskId, { state: 'done', attempts: 0 });
      expect(overlaps).toBe(0);
      expect([...stepsOf.values()]).toEqual(Array(8).fill(3));
    });

    it('runs a task again after a step that was woken while it ran', async () => {
      const [taskId = ''] = await enqueueTasks(1);
      const firstStepRunning = deferred();
      const woken = deferred();
      let steps = 0;
      const runner = startRunner({
        step: async () => {
          steps++;
          if (steps > 1) return { kind: 'park', until: null };
          firstStepRunning.resolve();
          await woken.promise;
          return { kind: 'park', until: null };
        },
      });
      await firstStepRunning.promise;
      expect(await queue.enqueue(taskId)).toBe('wake-requested');
      runner.wake();
      woken.resolve();
      await vi.waitFor(() => expect(steps).toBe(2), eventually);
      await expectJob(taskId, { state: 'parked', runAt: null, lockedBy: null });
      // A plain wake-up of the parked job, then a prompt runner.wake(), runs a third step.
      expect(await queue.enqueue(taskId)).toBe('woken');
      runner.wake();
      await vi.waitFor(() => expect(steps).toBe(3), eventually);
    });

    it('aborts the signal of one task with abort(taskId); the job is released', async () => {
      const [taskId = '', other = ''] = await enqueueTasks(2);
      const reasons: unknown[] = [];
      const calls = new Map<string, number>();
      const runner = startRunner({
        step: async (id, signal) => {
          calls.set(id, (calls.get(id) ?? 0) + 1);
          if (id === other || (calls.get(id) ?? 0) > 1) return { kind: 'park', until: null };
          try {
            return await abortedWith(signal);
          } catch (error) {
            reasons.push(error);
            throw error;
          }
        },
      });
      await vi.waitFor(() => expect(runner.running()).toEqual([taskId]), eventually);
      const reason = new Error('cancelled by the test');
      expect(runner.abort('not-running-here', reason)).toBe(false);
      expect(runner.abort(taskId, reason)).toBe(true);
      // Interrupted, not failed: released (no attempt), so it runs again.
      await vi.waitFor(() => expect(calls.get(taskId)).toBe(2), eventually);
      expect(reasons).toEqual([reason]);
      expect(calls.get(other)).toBe(1);
      await expectJob(taskId, { state: 'parked', attempts: 0, lastError: null });
    });

    it('stops a cancelled task for good: cancel in the queue, then abort', async () => {
      const [taskId = ''] = await enqueueTasks(1);
      let calls = 0;
      const runner = startRunner({
        step: (_, signal) => {
          calls++;
          return abortedWith(signal);
        },
      });
      await vi.waitFor(() => expect(runner.running()).toEqual([taskId]), eventually);
      expect(await queue.cancel(taskId)).toBe(true);
      expect(runner.abort(taskId, new Error('cancelled'))).toBe(true);
      await vi.waitFor(() => expect(runner.running()).toEqual([]), eventually);
      await sleep(100);
      expect(calls).toBe(1);
      expect(await queue.get(taskId)).toMatchObject({ state: 'done', attempts: 0 });
    });

    it('renews the lease while a step runs, and aborts the step once the lease is lost', async () => {
      const [taskId = ''] = await enqueueTasks(1);
      let reason: unknown;
      const runner = startRunner(
        {
          step: async (_, signal) => {
            try {
              return await abortedWith(signal);
            } catch (error) {
              reason = error;
              throw error;
            }
          },
        },
        { leaseMs: 1500 },
      );
      await vi.waitFor(() => expect(runner.running()).toEqual([taskId]), eventually);
      const first = (await queue.get(taskId))?.lockedUntil?.getTime() ?? 0;
      await vi.waitFor(async () => {
        expect((await queue.get(taskId))?.lockedUntil?.getTime()).toBeGreaterThan(first);
      }, eventually);
      expect(await queue.claim('another-worker', 1500)).toBeNull();
      // Cancelled by another process: the lease goes, the next renewal notices.
      await queue.cancel(taskId);
      await vi.waitFor(() => expect(reason).toBeInstanceOf(Error), eventually);
      expect((reason as Error).message).toMatch(/Lease .* was lost/);
      await vi.waitFor(() => expect(runner.running()).toEqual([]), eventually);
      expect(await queue.get(taskId)).toMatchObject({ state: 'done', attempts: 0 });
    });

    it('stop() aborts the running steps and waits for them to settle', async () => {
      const [parksOnStop = '', throwsOnStop = '', later = ''] = await enqueueTasks(3);
      await queue.cancel(later); // enqueued again after the stop
      const settled: string[] = [];
      const runner = startRunner({
        step: async (taskId, signal) => {
          await new Promise((resolve) => signal.addEventListener('abort', resolve));
          await sleep(100); // winding down takes a while
          settled.push(taskId);
          if (taskId === throwsOnStop) throw signal.reason;
          return { kind: 'park', until: null };
        },
      });
      await vi.waitFor(() => expect(runner.running()).toHaveLength(2), eventually);
      await runner.stop();
      expect(settled.sort()).toEqual([parksOnStop, throwsOnStop].sort());
      expect(runner.running()).toEqual([]);
      // Interrupted steps record nothing, whatever they returned: both are due again.
      expect(await queue.get(parksOnStop)).toMatchObject({ state: 'queued', lockedBy: null });
      expect(await queue.get(throwsOnStop)).toMatchObject({
        state: 'queued',
        lockedBy: null,
        attempts: 0,
      });
      // Stopped means stopped: nothing is claimed any more.
      await queue.enqueue(later);
      runner.wake();
      await sleep(200);
      expect(await queue.get(later)).toMatchObject({ state: 'queued' });
      expect(quietLogger.error).not.toHaveBeenCalled();
    });

    it('retries a throwing step with backoff, then gives up once with onGiveUp', async () => {
      const [taskId = ''] = await enqueueTasks(1);
      let steps = 0;
      const gaveUp: [string, unknown][] = [];
      startRunner(
        {
          step: () => Promise.reject(new Error(`boom ${++steps}`)),
          onGiveUp: (id, error) => {
            gaveUp.push([id, error]);
            return Promise.resolve();
          },
        },
        { maxAttempts: 3, retryDelayMs: (failures) => failures * 50 },
      );
      await expectJob(taskId, { state: 'done', attempts: 3 });
      expect(steps).toBe(3);
      expect(gaveUp).toHaveLength(1);
      expect(gaveUp[0]?.[0]).toBe(taskId);
      expect((gaveUp[0]?.[1] as Error).message).toBe('boom 3');
      expect((await queue.get(taskId))?.lastError).toMatch(/^Error: boom 3/);
      expect(quietLogger.warn).toHaveBeenCalledTimes(2); // two retries
    });

    it('retries a throwing onGiveUp without running the step again', async () => {
      const [taskId = ''] = await enqueueTasks(1);
      let steps = 0;
      let giveUps = 0;
      startRunner(
        {
          step: () => Promise.reject(new Error(`boom ${++steps}`)),
          onGiveUp: () =>
            ++giveUps === 1 ? Promise.reject(new Error('db down')) : Promise.resolve(),
        },
        { maxAttempts: 1 },
      );
      await expectJob(taskId, { state: 'done' });
      expect(steps).toBe(1);
      expect(giveUps).toBe(2);
      expect(quietLogger.error).toHaveBeenCalledWith(
        '[jobs] giving the task up failed; it will be tried again',
        expect.objectContaining({ taskId }),
      );
    });
  });
}
