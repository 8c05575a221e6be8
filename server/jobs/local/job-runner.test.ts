import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ClaimedJob, StepOutcome } from './job-queue';
import {
  defaultRetryDelayMs,
  JobRunner,
  type JobRunnerOptions,
  type RunnerQueue,
} from './job-runner';
import { abortedWith, deferred } from '../../test-support/queue';

const eventually = { timeout: 30_000, interval: 5 };

function job(taskId: string, overrides: Partial<ClaimedJob> = {}): ClaimedJob {
  return {
    id: `job-${taskId}`,
    taskId,
    attempts: 0,
    lastError: null,
    lockedUntil: new Date(0),
    reclaimed: false,
    ...overrides,
  };
}

/** A queue that hands out `jobs` once each, and records every other call. */
function fakeQueue(jobs: ClaimedJob[]) {
  const pending = [...jobs];
  return {
    claim: vi.fn<RunnerQueue['claim']>(() => Promise.resolve(pending.shift() ?? null)),
    renew: vi.fn<RunnerQueue['renew']>(() => Promise.resolve(true)),
    finish: vi.fn<RunnerQueue['finish']>(() => Promise.resolve(true)),
    fail: vi.fn<RunnerQueue['fail']>(() => Promise.resolve(true)),
    release: vi.fn<RunnerQueue['release']>(() => Promise.resolve(true)),
    enqueue: vi.fn<RunnerQueue['enqueue']>(() => Promise.resolve('woken')),
  };
}

const runners: JobRunner[] = [];
afterEach(async () => {
  await Promise.all(runners.splice(0).map((runner) => runner.stop()));
});

function runner(
  queue: RunnerQueue,
  step: (taskId: string, signal: AbortSignal) => Promise<StepOutcome>,
  options: Partial<JobRunnerOptions> = {},
) {
  const logger = { error: vi.fn(), warn: vi.fn() };
  const onGiveUp = vi.fn(() => Promise.resolve());
  const instance = new JobRunner({
    queue,
    workerId: 'host:1:test',
    pollMs: 5,
    logger,
    handler: { step, onGiveUp },
    ...options,
  });
  runners.push(instance);
  return { runner: instance, logger, onGiveUp };
}

describe('JobRunner', () => {
  it('logs database errors in the loop and keeps going; an outcome not recorded is retried', async () => {
    const queue = fakeQueue([job('t1')]);
    const down = new Error('database is down');
    queue.claim.mockRejectedValueOnce(down).mockRejectedValueOnce(down);
    queue.finish.mockRejectedValueOnce(down);
    const step = vi.fn(() => Promise.resolve<StepOutcome>({ kind: 'done' }));
    const { runner: r, logger } = runner(queue, step);
    r.start();
    await vi.waitFor(() => expect(queue.finish).toHaveBeenCalledTimes(1), eventually);
    await vi.waitFor(() => expect(queue.claim.mock.calls.length).toBeGreaterThan(4), eventually);
    expect(step).toHaveBeenCalledTimes(1);
    expect(logger.error).toHaveBeenCalledWith('[jobs] claiming a job failed', {
      workerId: 'host:1:test',
      error: down,
    });
    // The step ran but its end could not be recorded: a failed attempt, retried after backoff.
    expect(queue.fail).toHaveBeenCalledWith('job-t1', 'host:1:test', down, {
      retryAt: expect.any(Date) as Date,
    });
    expect(logger.warn).toHaveBeenCalledWith('[jobs] step failed; it will be retried', {
      workerId: 'host:1:test',
      taskId: 't1',
      error: down,
    });
  });

  it('retries after the backoff from its clock, counting earlier attempts', async () => {
    const queue = fakeQueue([job('t1'), job('t2', { attempts: 1 })]);
    const clock = () => new Date('2030-01-01T00:00:00.000Z');
    const boom = new Error('boom');
    const { runner: r } = runner(queue, () => Promise.reject(boom), { clock, concurrency: 1 });
    r.start();
    await vi.waitFor(() => expect(queue.fail).toHaveBeenCalledTimes(2), eventually);
    expect(queue.fail.mock.calls).toEqual([
      ['job-t1', 'host:1:test', boom, { retryAt: new Date('2030-01-01T00:00:02.000Z') }],
      ['job-t2', 'host:1:test', boom, { retryAt: new Date('2030-01-01T00:00:04.000Z') }],
    ]);
    expect([1, 2, 3, 6, 10].map(defaultRetryDelayMs)).toEqual([2000, 4000, 8000, 60_000, 60_000]);
  });

  it('gives up on a job that already used its attempts without running a step', async () => {
    const queue = fakeQueue([job('t1', { attempts: 3, lastError: 'Error: earlier' })]);
    const step = vi.fn(() => Promise.resolve<StepOutcome>({ kind: 'done' }));
    const { runner: r, onGiveUp } = runner(queue, step);
    r.start();
    await vi.waitFor(() => expect(queue.fail).toHaveBeenCalledTimes(1), eventually);
    expect(step).not.toHaveBeenCalled();
    expect(onGiveUp).toHaveBeenCalledWith('t1', new Error('Error: earlier'));
    expect(queue.fail.mock.calls[0]?.[3]).toEqual({ giveUp: true });
  });

  it('counts an invalid outcome as a failed step', async () => {
    const queue = fakeQueue([job('t1')]);
    const { runner: r } = runner(queue, () =>
      Promise.resolve({ kind: 'park', until: new Date(Number.NaN) }),
    );
    r.start();
    await vi.waitFor(() => expect(queue.fail).toHaveBeenCalledTimes(1), eventually);
    expect(queue.finish).not.toHaveBeenCalled();
    expect(String(queue.fail.mock.calls[0]?.[2])).toMatch(/invalid outcome/);
  });

  it('logs a failed renewal, keeps renewing, and aborts the step when the lease is lost', async () => {
    const queue = fakeQueue([job('t1')]);
    queue.renew.mockRejectedValueOnce(new Error('timeout')).mockResolvedValueOnce(true);
    queue.renew.mockResolvedValue(false);
    let reason: unknown;
    const { runner: r, logger } = runner(
      queue,
      (_, signal) =>
        abortedWith(signal).catch((error: unknown) => {
          reason = error;
          throw error;
        }),
      { leaseMs: 30 },
    );
    r.start();
    await vi.waitFor(() => expect(queue.release).toHaveBeenCalledTimes(1), eventually);
    expect(queue.renew.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(String(reason)).toMatch(/Lease on the job of task t1 was lost/);
    expect(logger.error).toHaveBeenCalledWith(
      '[jobs] renewing a lease failed',
      expect.objectContaining({ taskId: 't1' }),
    );
    expect(queue.fail).not.toHaveBeenCalled();
  });

  it('releases a job whose claim completes after stop(), without running it', async () => {
    const queue = fakeQueue([]);
    const claimed = deferred<ClaimedJob | null>();
    queue.claim.mockReturnValueOnce(claimed.promise);
    const step = vi.fn(() => Promise.resolve<StepOutcome>({ kind: 'done' }));
    const { runner: r } = runner(queue, step);
    r.start();
    r.start(); // no-op
    await vi.waitFor(() => expect(queue.claim).toHaveBeenCalledTimes(1), eventually);
    const stopped = r.stop();
    claimed.resolve(job('t1'));
    await stopped;
    expect(step).not.toHaveBeenCalled();
    expect(queue.release).toHaveBeenCalledWith('job-t1', 'host:1:test');
    expect(queue.claim).toHaveBeenCalledTimes(1);
    await r.stop(); // no-op
  });

  it('claims without the tasks it is running, and wakes up early on wake()', async () => {
    const queue = fakeQueue([job('t1')]);
    const gate = deferred();
    const { runner: r } = runner(
      queue,
      () => gate.promise.then(() => ({ kind: 'done' }) as const),
      {
        pollMs: 3_600_000,
      },
    );
    r.start();
    await vi.waitFor(() => expect(r.running()).toEqual(['t1']), eventually);
    await vi.waitFor(() => expect(queue.claim).toHaveBeenCalledTimes(2), eventually);
    expect(queue.claim.mock.calls[1]?.[2]).toEqual({ excludeTaskIds: ['t1'] });
    r.wake(); // the hour-long poll would never come
    await vi.waitFor(() => expect(queue.claim).toHaveBeenCalledTimes(3), eventually);
    gate.resolve();
    await vi.waitFor(() => expect(queue.finish).toHaveBeenCalledTimes(1), eventually);
  });

  it('refuses bad options', () => {
    const queue = fakeQueue([]);
    const step = () => Promise.resolve<StepOutcome>({ kind: 'done' });
    expect(() => runner(queue, step, { concurrency: 0 })).toThrow(/concurrency/);
    expect(() => runner(queue, step, { leaseMs: 1.5 })).toThrow(/leaseMs/);
    expect(() => runner(queue, step, { workerId: '' })).toThrow(/workerId/);
  });
});
