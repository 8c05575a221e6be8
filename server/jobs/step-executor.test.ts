import { describe, expect, it, vi } from 'vitest';
import type { StepOutcome } from './local/job-types';
import type { JobsLogger, Lease, LeaseBackend, StepHandler } from './lease-backend';
import type { ClaimedJob } from './local/job-queue';
import { LocalLeases } from './local/local-leases';
import { PgBossLeases, type StepLease } from './pg-boss/pg-boss-leases';
import { StepExecutor } from './step-executor';

/**
 * The step contract's rules that need a queue to misbehave (a write that fails), on both lease
 * backends with fakes for their queues. The rules that need real queues and processes are in
 * step-contract.integration.test.ts.
 */

const now = new Date('2030-01-01T00:00:00.000Z');

/** A backend over a fake queue, and what the tests read and break of it. */
interface Fake<L extends Lease> {
  readonly backend: LeaseBackend<L>;
  lease(taskId: string, attempts: number): L;
  /** Failures recorded for a retry, in order. */
  readonly retried: unknown[];
  /** Makes recording a step's outcome (locally `finish`, on pg-boss sending the next job) throw. */
  breakRecording(error: Error): void;
  /** Makes recording a failure for its retry throw. */
  breakRetries(error: Error): void;
}

function localFake(): Fake<ClaimedJob> {
  const retried: unknown[] = [];
  let recording: Error | null = null;
  let retries: Error | null = null;
  const queue = {
    renew: () => Promise.resolve(true),
    finish: () => (recording === null ? Promise.resolve(true) : Promise.reject(recording)),
    fail: (_id: string, _worker: string, error: unknown, disposition: object) => {
      if ('retryAt' in disposition) {
        if (retries !== null) return Promise.reject(retries);
        retried.push(error);
      }
      return Promise.resolve(true);
    },
    release: () => Promise.resolve(true),
    enqueue: () => Promise.resolve('woken' as const),
  };
  return {
    backend: new LocalLeases({
      queue,
      workerId: 'me',
      leaseMs: 30_000,
      maxAttempts: 3,
      retryDelayMs: () => 1000,
      clock: () => now,
      onWake: () => undefined,
      onRenewError: () => undefined,
    }),
    lease: (taskId, attempts) => ({
      id: `job-${taskId}`,
      taskId,
      attempts,
      lastError: null,
      lockedUntil: now,
      reclaimed: false,
    }),
    retried,
    breakRecording: (error) => (recording = error),
    breakRetries: (error) => (retries = error),
  };
}

function pgBossFake(): Fake<StepLease> {
  const retried: unknown[] = [];
  let recording: Error | null = null;
  let retries: Error | null = null;
  return {
    backend: new PgBossLeases({
      workerId: 'me',
      holderOf: () => Promise.resolve('me'),
      hurryRetry: () => Promise.resolve(false),
      failForRetry: (_lease, error) => {
        if (retries !== null) return Promise.reject(retries);
        retried.push(error);
        return Promise.resolve();
      },
      dispatch: () => (recording === null ? Promise.resolve() : Promise.reject(recording)),
      watch: { watch: () => undefined, unwatch: () => undefined },
      clock: () => now,
    }),
    lease: (taskId, attempts) => ({
      id: `job-${taskId}-${attempts}`,
      taskId,
      attempts,
      lastError: null,
    }),
    retried,
    breakRecording: (error) => (recording = error),
    breakRetries: (error) => (retries = error),
  };
}

const backends = [
  { name: 'the local job table', fake: localFake as () => Fake<Lease> },
  { name: 'pg-boss', fake: pgBossFake as () => Fake<Lease> },
];

function executor(fake: Fake<Lease>, handler: Partial<StepHandler>) {
  const logger = { error: vi.fn(), warn: vi.fn() } satisfies JobsLogger;
  const step = vi.fn(handler.step ?? (() => Promise.resolve<StepOutcome>({ kind: 'continue' })));
  const onGiveUp = vi.fn(handler.onGiveUp ?? (() => Promise.resolve()));
  const instance = new StepExecutor({
    backend: fake.backend,
    handler: { step, onGiveUp },
    maxAttempts: 3,
    workerId: 'me',
    logger,
  });
  return { executor: instance, step, onGiveUp, logger };
}

describe.each(backends)('the step contract on $name (fake queue)', ({ fake: makeFake }) => {
  // Once a bug of pg-boss's mode: a step whose next job could not be sent left its task with
  // no job at all.
  it('retries a step whose outcome could not be recorded, so one more step records it', async () => {
    const fake = makeFake();
    const down = new Error('database down');
    fake.breakRecording(down);
    const { executor: run, step, logger } = executor(fake, {});
    await run.execute(fake.lease('t', 0));
    expect(step).toHaveBeenCalledOnce();
    expect(fake.retried).toEqual([down]);
    // On the last attempt there is nothing to retry with: logged, the task waits for a wake.
    await run.execute(fake.lease('t', 2));
    expect(fake.retried).toEqual([down]);
    expect(logger.error).toHaveBeenCalledWith(
      '[jobs] recording a step failed on the last attempt',
      expect.objectContaining({ taskId: 't', error: down }),
    );
  });

  it('counts a step that returns no valid outcome as a failed attempt', async () => {
    const fake = makeFake();
    const { executor: run } = executor(fake, {
      step: () => Promise.resolve({ kind: 'later' } as unknown as StepOutcome),
    });
    await run.execute(fake.lease('t', 0));
    expect(fake.retried).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/invalid outcome/) as string }),
    ]);
  });

  it('tries a failed give-up again without running the step again', async () => {
    const fake = makeFake();
    let giveUps = 0;
    const {
      executor: run,
      step,
      onGiveUp,
    } = executor(fake, {
      step: () => Promise.reject(new Error('broken')),
      onGiveUp: () => (++giveUps === 1 ? Promise.reject(new Error('db down')) : Promise.resolve()),
    });
    await run.execute(fake.lease('t', 2));
    // The next lease of the task (its count restarted, as a new pg-boss job's is) gives up.
    await run.execute(fake.lease('t', 0));
    expect(step).toHaveBeenCalledOnce();
    expect(onGiveUp).toHaveBeenCalledTimes(2);
    // With the step's own error, not a generic one: it is what the task's page shows.
    expect(onGiveUp).toHaveBeenLastCalledWith('t', expect.objectContaining({ message: 'broken' }));
  });

  it('forgets the counts of tasks handed over to another worker', async () => {
    const fake = makeFake();
    const {
      executor: run,
      step,
      onGiveUp,
    } = executor(fake, {
      step: () => Promise.reject(new Error('broken')),
      onGiveUp: () => Promise.reject(new Error('db down')),
    });
    await run.execute(fake.lease('t', 2));
    run.handedOver(new Error('declared dead'));
    // Back on this worker later, the task starts a chain of its own: a step runs.
    await run.execute(fake.lease('t', 0));
    expect(step).toHaveBeenCalledTimes(2);
    expect(onGiveUp).toHaveBeenCalledOnce();
  });

  it('lets the task go before an error recording a failure propagates', async () => {
    const fake = makeFake();
    const down = new Error('database down');
    fake.breakRetries(down);
    const { executor: run } = executor(fake, { step: () => Promise.reject(new Error('broken')) });
    await expect(run.execute(fake.lease('t', 0))).rejects.toBe(down);
    expect(run.runningTasks()).toEqual([]);
  });
});
