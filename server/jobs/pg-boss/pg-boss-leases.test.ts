import { describe, expect, it, vi } from 'vitest';
import { abortedWith, deferred } from '../../test-support/queue';
import type { StepOutcome } from '../local/job-types';
import type { JobsLogger, StepHandler } from '../lease-backend';
import { StepExecutor } from '../step-executor';
import { leaseOf, PgBossLeases, type PgBossLeasesDeps, type StepJob } from './pg-boss-leases';
import { priorities, type FollowUp } from './step-jobs';

const now = new Date('2030-01-01T00:00:00.000Z');

type Overrides = Partial<PgBossLeasesDeps & StepHandler & { logger: JobsLogger }>;

/** The step contract over pg-boss leases whose queue calls are fakes. */
function setUp(overrides: Overrides = {}) {
  const sent: { taskId: string; followUp: NonNullable<FollowUp>; priority: number }[] = [];
  const watched = new Map<string, (reason: Error) => void>();
  const failForRetry = vi.fn<PgBossLeasesDeps['failForRetry']>(() => Promise.resolve());
  const leases = new PgBossLeases({
    workerId: 'me',
    holderOf: () => Promise.resolve('me'),
    hurryRetry: () => Promise.resolve(false),
    failForRetry,
    dispatch: (taskId, followUp, priority) => {
      sent.push({ taskId, followUp, priority });
      return Promise.resolve();
    },
    watch: {
      watch: (jobId, lost) => watched.set(jobId, lost),
      unwatch: (jobId) => watched.delete(jobId),
    },
    clock: () => now,
    ...overrides,
  });
  const executor = new StepExecutor({
    backend: leases,
    handler: {
      step: overrides.step ?? (() => Promise.resolve({ kind: 'done' })),
      onGiveUp: overrides.onGiveUp ?? vi.fn(() => Promise.resolve()),
    },
    maxAttempts: 3,
    workerId: 'me',
    logger: overrides.logger ?? { error: vi.fn(), warn: vi.fn() },
  });
  const handler = {
    handle: (stepJob: StepJob) => executor.execute(leaseOf(stepJob)),
    runningCount: () => executor.runningTasks().length,
    drain: () => executor.drain(),
  };
  return { handler, sent, watched, failForRetry };
}

const job = (taskId: string, retryCount = 0, id = `job-${taskId}-${retryCount}`): StepJob => ({
  id,
  data: { taskId },
  retryCount,
});

describe('the step contract on pg-boss leases', () => {
  it.each<[StepOutcome, FollowUp]>([
    [{ kind: 'continue' }, { lane: 'now' }],
    [
      { kind: 'park', until: new Date(now.getTime() + 5000) },
      { lane: 'timer', at: new Date(now.getTime() + 5000) },
    ],
    [{ kind: 'park', until: null }, null],
    [{ kind: 'done' }, null],
  ])('turns the outcome %o into the next job %o', async (outcome, followUp) => {
    const { handler, sent } = setUp({ step: () => Promise.resolve(outcome) });
    await handler.handle(job('t'));
    expect(sent).toEqual(
      followUp === null ? [] : [{ taskId: 't', followUp, priority: priorities.followUp }],
    );
  });

  it('sends a job for a task another worker holds on to that worker, running nothing', async () => {
    const step = vi.fn(() => Promise.resolve<StepOutcome>({ kind: 'done' }));
    const { handler, sent } = setUp({ step, holderOf: () => Promise.resolve('other') });
    await handler.handle(job('t'));
    expect(step).not.toHaveBeenCalled();
    expect(sent).toEqual([{ taskId: 't', followUp: { lane: 'now' }, priority: 1 }]);
  });

  it('never runs two steps of a task at once: a job that arrives meanwhile reruns it after', async () => {
    const gate = deferred();
    let inFlight = 0;
    let most = 0;
    const { handler, sent } = setUp({
      step: async () => {
        most = Math.max(most, ++inFlight);
        await gate.promise;
        inFlight--;
        return { kind: 'park', until: null };
      },
    });
    const first = handler.handle(job('t', 0, 'a'));
    await vi.waitFor(() => expect(handler.runningCount()).toBe(1));
    await handler.handle(job('t', 0, 'b'));
    expect(most).toBe(1);
    gate.resolve();
    await first;
    expect(sent).toEqual([{ taskId: 't', followUp: { lane: 'now' }, priority: 1 }]);
  });

  it('fails a failing step for pg-boss to retry, and gives the task up on the last attempt', async () => {
    const error = new Error('broken');
    const onGiveUp = vi.fn(() => Promise.resolve());
    const { handler, failForRetry } = setUp({ step: () => Promise.reject(error), onGiveUp });
    await handler.handle(job('t', 1));
    expect(failForRetry).toHaveBeenCalledWith(leaseOf(job('t', 1)), error);
    expect(onGiveUp).not.toHaveBeenCalled();
    await handler.handle(job('t', 2));
    expect(failForRetry).toHaveBeenCalledOnce();
    expect(onGiveUp).toHaveBeenCalledWith('t', error);
  });

  it('holds the task until the failure is recorded: a job fetched meanwhile runs no step', async () => {
    const recorded = deferred();
    const step = vi.fn(() => Promise.reject(new Error('broken')));
    const { handler, sent } = setUp({ step, failForRetry: () => recorded.promise });
    const failing = handler.handle(job('t', 0, 'a'));
    await vi.waitFor(() => expect(step).toHaveBeenCalledOnce());
    await handler.handle(job('t', 0, 'wake'));
    recorded.resolve();
    await failing;
    // The wake neither ran a step nor reran one after the failure: the retry follows instead.
    expect(step).toHaveBeenCalledOnce();
    expect(sent).toEqual([]);
  });

  it("counts attempts per task: a wake that ran in a retry's place carries on its count", async () => {
    const error = new Error('broken');
    const onGiveUp = vi.fn(() => Promise.resolve());
    const step = vi.fn(() => Promise.reject(error));
    const { handler, failForRetry } = setUp({ step, onGiveUp });
    await handler.handle(job('t', 0, 'first'));
    // The first job's retry was absorbed into a wake, which runs with a count of its own.
    await handler.handle(job('t', 0, 'wake'));
    await handler.handle(job('t', 1, 'wake'));
    expect(step).toHaveBeenCalledTimes(3);
    expect(failForRetry).toHaveBeenCalledTimes(2);
    expect(onGiveUp).toHaveBeenCalledOnce();
  });

  it('starts the count again once a step succeeds', async () => {
    let fail = true;
    const onGiveUp = vi.fn(() => Promise.resolve());
    const { handler, failForRetry } = setUp({
      step: () => (fail ? Promise.reject(new Error('broken')) : Promise.resolve({ kind: 'done' })),
      onGiveUp,
    });
    await handler.handle(job('t', 0));
    await handler.handle(job('t', 1));
    fail = false;
    await handler.handle(job('t', 2));
    fail = true;
    await handler.handle(job('t', 0, 'later'));
    expect(failForRetry).toHaveBeenCalledTimes(3);
    expect(onGiveUp).not.toHaveBeenCalled();
  });

  it('brings a waiting retry forward for a job that arrives in its backoff, running nothing', async () => {
    const step = vi.fn(() => Promise.resolve<StepOutcome>({ kind: 'done' }));
    const hurried: string[] = [];
    const { handler, sent } = setUp({
      step,
      hurryRetry: (taskId) => {
        hurried.push(taskId);
        return Promise.resolve(true);
      },
    });
    await handler.handle(job('t'));
    expect(hurried).toEqual(['t']);
    expect(step).not.toHaveBeenCalled();
    expect(sent).toEqual([]);
  });

  it('tries a task again later when giving it up fails', async () => {
    const { handler, sent } = setUp({
      step: () => Promise.reject(new Error('broken')),
      onGiveUp: () => Promise.reject(new Error('database down')),
    });
    await handler.handle(job('t', 2));
    expect(sent).toEqual([
      {
        taskId: 't',
        followUp: { lane: 'timer', at: new Date(now.getTime() + 30_000) },
        priority: 0,
      },
    ]);
  });

  it('counts no attempt and asks for nothing when its job is cancelled mid-step', async () => {
    const { handler, sent, watched } = setUp({ step: (_t, signal) => abortedWith(signal) });
    const running = handler.handle(job('t', 2, 'j'));
    await vi.waitFor(() => expect(watched.has('j')).toBe(true));
    watched.get('j')?.(new Error('cancelled'));
    await expect(running).resolves.toBeUndefined();
    expect(sent).toEqual([]);
    expect(watched.size).toBe(0);
  });

  it('drains: aborts running steps and hands back them and every later job', async () => {
    const { handler, sent } = setUp({ step: (_t, signal) => abortedWith(signal) });
    const running = handler.handle(job('t1'));
    await vi.waitFor(() => expect(handler.runningCount()).toBe(1));
    const handBack = await handler.drain();
    await running;
    await handler.handle(job('t2'));
    expect(handBack).toEqual(['t1']);
    expect(await handler.drain()).toEqual(['t1', 't2']);
    expect(sent).toEqual([]);
  });
});
