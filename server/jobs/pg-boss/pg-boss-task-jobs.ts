import os from 'node:os';
import type PgBoss from 'pg-boss';
import type { Db } from '../../db/client';
import { placeTask } from '../workers/place-task';
import { WorkerMonitor } from '../workers/worker-monitor';
import { WorkerRegistry } from '../workers/worker-registry';
import type { JobsLogger, StepHandler } from '../lease-backend';
import { positiveInteger } from '../positive-integer';
import { StepExecutor } from '../step-executor';
import type { TaskJobs } from '../task-jobs';
import { newWorkerId } from '../workers/worker-id';
import { JobWatch } from './job-watch';
import { listenForJobWakes, sendJobWake, type JobWakeKind, type JobWakeListener } from './job-wake';
import { StepBoss, stepQueuePolicy } from './step-boss';
import { leaseOf, PgBossLeases, type StepLease } from './pg-boss-leases';
import {
  priorities,
  singletonKey,
  stepQueue,
  workerOfQueue,
  type FollowUp,
  type StepJobData,
} from './step-jobs';
import { TaskHandover } from './task-handover';

export interface PgBossTaskJobsOptions {
  readonly db: Db;
  /** The PostgreSQL database (pg-boss keeps its tables in its `pgboss` schema there). */
  readonly url: string;
  /** null: schedule only (a web process); otherwise this process runs steps as a worker. */
  readonly worker: PgBossWorkerOptions | null;
  /** A worker heartbeat older than this means the worker is gone (default 15 s). */
  readonly expiryMs?: number;
  readonly logger?: JobsLogger;
}

export interface PgBossWorkerOptions {
  readonly handler: StepHandler;
  /** Steps at once. */
  readonly capacity: number;
  readonly workerId?: string;
  /** Heartbeat period (default 5 s). */
  readonly heartbeatMs?: number;
  /** How often idle fetch loops look for jobs sent from other processes (default 1 s, ≥ 0.5 s). */
  readonly pollMs?: number;
  /**
   * How often running jobs' states are read (default 1 s): a cancel from another Shadowbox process
   * arrives as a notice at once; this look catches expiries, takeovers and missed notices.
   */
  readonly watchMs?: number;
  /** How long stopped workers' queues are swept before they are deleted (default 1 day). */
  readonly retainStoppedMs?: number;
  /** The first retry's delay; later ones back off exponentially (default 2 s). */
  readonly retryDelaySecs?: number;
}

/**
 * The PostgreSQL adapter of the job queue port, on pg-boss: each worker registers itself and
 * takes steps from its own queue; a task's jobs go to the queue of the worker holding its
 * worktree (`placeTask`), and run by the step contract (`StepExecutor` over `PgBossLeases`);
 * retries, backoff and the lease on a running job are pg-boss's; workers that stop beating have their tasks moved
 * (`WorkerMonitor`, `TaskHandover`). A cancel cancels the task's active job, wherever it runs, and
 * tells the worker running it (a NOTIFY, `job-wake.ts`), which aborts the step; its job watch
 * catches what no notice announces within `watchMs`. Jobs sent to another process's worker are
 * announced the same way, so its fetch loops take them at once rather than at their next poll.
 */
export class PgBossTaskJobs implements TaskJobs {
  readonly workerId: string | null;
  private readonly db: Db;
  private readonly url: string;
  private readonly boss: StepBoss;
  private readonly registry: WorkerRegistry;
  private readonly expiryMs: number;
  private readonly logger: JobsLogger;
  private readonly worker: RunningWorker | null;
  private started = false;
  private wakes: JobWakeListener | null = null;

  constructor(options: PgBossTaskJobsOptions) {
    this.db = options.db;
    this.url = options.url;
    this.logger = options.logger ?? console;
    this.expiryMs = positiveInteger(options.expiryMs ?? 15_000, 'expiryMs');
    const capacity =
      options.worker === null ? 0 : positiveInteger(options.worker.capacity, 'capacity');
    this.boss = new StepBoss({
      url: options.url,
      // The fetch loops and the watch, plus sends and the monitor's reads.
      poolSize: capacity + 3,
      supervise: options.worker !== null,
      logger: this.logger,
    });
    this.registry = new WorkerRegistry(this.db);
    this.worker = options.worker === null ? null : this.makeWorker(options.worker, capacity);
    this.workerId = this.worker?.id ?? null;
  }

  async start(): Promise<void> {
    if (this.started) return;
    await this.boss.start();
    this.started = true;
    const worker = this.worker;
    if (worker === null) return;
    // The queue exists before the worker is listed: nothing is ever placed on a missing queue
    // (pg-boss drops a job sent to one).
    await this.boss.createQueue(worker.id, worker.retryDelaySecs);
    await worker.monitor.start();
    const options: PgBoss.WorkOptions & { includeMetadata: true } = {
      includeMetadata: true,
      batchSize: 1,
      pollingIntervalSeconds: worker.pollMs / 1000,
    };
    // One fetch loop per slot: each runs one job at a time.
    for (let slot = 0; slot < worker.capacity; slot++) {
      const id = await this.boss.boss.work<StepJobData>(stepQueue(worker.id), options, ([job]) =>
        job === undefined ? Promise.resolve() : this.execute(worker, leaseOf(job)),
      );
      worker.loops.push(id);
    }
    // Jobs other processes send here are fetched when their notice arrives, not at the next poll.
    this.wakes = await listenForJobWakes({
      url: this.url,
      workerId: worker.id,
      wake: (kind) => (kind === 'job' ? this.notifyLoops() : void worker.watch.check()),
      logger: this.logger,
    });
  }

  /**
   * A drain: stop fetching, abort the running steps (they resume from their last checkpoint
   * elsewhere), mark this worker stopped and hand its tasks to live workers, then close pg-boss.
   */
  async stop(): Promise<void> {
    if (!this.started) return;
    const worker = this.worker;
    if (worker !== null) {
      await this.wakes?.close();
      this.wakes = null;
      await worker.monitor.stop();
      await this.boss.boss.offWork(stepQueue(worker.id));
      const handBack = await worker.executor.drain();
      worker.watch.close();
      await this.registry.stop(worker.id);
      const held = await this.db.task.findMany({
        where: { workerId: worker.id },
        select: { id: true },
      });
      await worker.handover.wakeAll([...handBack, ...held.map((task) => task.id)]);
      // Whatever is still queued here (sent before the stop) is moved the same way.
      await worker.handover.reconcile();
    }
    this.started = false;
    await this.boss.boss.stop({ graceful: false, close: true });
  }

  /** Makes the task's next step due now on the worker that holds it (placing it if need be). */
  async schedule(taskId: string): Promise<void> {
    await this.dispatch(taskId, { lane: 'now' }, priorities.requested);
  }

  /** Cancels the task's running job wherever it runs (and aborts it at once if it runs here). */
  async interrupt(taskId: string): Promise<void> {
    this.worker?.executor.abort(taskId, new Error(`task ${taskId} was cancelled`));
    const jobs = await this.boss.activeJobsOfTask(taskId);
    await this.boss.cancel(jobs);
    // The worker running the job aborts its step when it hears this, not at its watch's next look.
    const holders = new Set(jobs.map((job) => workerOfQueue(job.queue)));
    for (const holder of holders) {
      if (holder !== null && holder !== this.worker?.id) await this.wakeWorker('cancel', holder);
    }
  }

  private async dispatch(
    taskId: string,
    followUp: NonNullable<FollowUp>,
    priority: number,
  ): Promise<void> {
    const placement = await placeTask({
      db: this.db,
      registry: this.registry,
      taskId,
      expiryMs: this.expiryMs,
    });
    const workerId = placement?.workerId ?? (await this.heldHere(taskId));
    // No live worker: the task stays unplaced, and the first worker to start adopts it.
    if (workerId === null) return;
    const queue = stepQueue(workerId);
    const key = singletonKey(taskId, followUp.lane);
    // Timers are sent only by the step of the task, so no other timer of it is sent meanwhile.
    if (followUp.lane === 'timer') await this.boss.cancelLaterJobs(queue, key, followUp.at);
    await this.boss.boss.send(queue, { taskId } satisfies StepJobData, {
      singletonKey: key,
      priority,
      ...(followUp.lane === 'timer' ? { startAfter: followUp.at } : {}),
    });
    if (workerId === this.worker?.id) this.notifyLoops();
    // A timer due later is found by its worker's poll then; anything due now is announced.
    else if (followUp.lane === 'now' || followUp.at <= new Date()) {
      await this.wakeWorker('job', workerId);
    }
  }

  /** Tells another process's worker that its jobs changed; its poll and watch are the fallback. */
  private async wakeWorker(kind: JobWakeKind, workerId: string): Promise<void> {
    try {
      await sendJobWake(
        (text, values) => this.boss.boss.getDb().executeSql(text, values),
        kind,
        workerId,
      );
    } catch (error) {
      this.logger.error('[pg-boss] waking a worker failed; its poll or watch finds the change', {
        kind,
        workerId,
        error,
      });
    }
  }

  /**
   * Runs one fetched job. pg-boss records a rejection as the job's failure (retried while it has
   * retries) without telling anyone: it is logged here first.
   */
  private async execute(worker: RunningWorker, lease: StepLease): Promise<void> {
    try {
      await worker.executor.execute(lease);
    } catch (error) {
      this.logger.error('[pg-boss] a step job failed; pg-boss retries it while it can', {
        taskId: lease.taskId,
        jobId: lease.id,
        error,
      });
      throw error;
    }
  }

  /** Has this worker's idle fetch loops look for jobs now rather than at their next poll. */
  private notifyLoops(): void {
    for (const loop of this.worker?.loops ?? []) this.boss.boss.notifyWorker(loop);
  }

  /**
   * With no live worker, this worker when it holds the task: its heartbeat may just be late (a
   * long tick, a busy database), yet it runs the task's step and must not drop its follow-up, as
   * the task would then keep a live holder and no job, which no sweep looks for. Were this worker
   * really stopped, the handover sweeps its queue and moves the job (see `TaskHandover`).
   */
  private async heldHere(taskId: string): Promise<string | null> {
    const id = this.worker?.id;
    if (id === undefined) return null;
    const task = await this.db.task.findUnique({
      where: { id: taskId },
      select: { workerId: true },
    });
    return task?.workerId === id ? id : null;
  }

  private makeWorker(options: PgBossWorkerOptions, capacity: number): RunningWorker {
    const id = options.workerId ?? newWorkerId();
    const watch = new JobWatch(
      (ids) => this.boss.activeJobs(ids),
      positiveInteger(options.watchMs ?? 1000, 'watchMs'),
      this.logger,
    );
    const leases = new PgBossLeases({
      workerId: id,
      holderOf: async (taskId) =>
        (await this.db.task.findUnique({ where: { id: taskId }, select: { workerId: true } }))
          ?.workerId,
      hurryRetry: async (taskId) => {
        const hurried = await this.boss.hurryRetries(stepQueue(id), taskId);
        if (hurried.length === 0) return false;
        this.notifyLoops();
        return true;
      },
      failForRetry: async (lease, error) => {
        await this.boss.boss.fail(stepQueue(id), lease.id, asJobOutput(error));
      },
      dispatch: (taskId, followUp, priority) => this.dispatch(taskId, followUp, priority),
      watch,
      clock: () => new Date(),
    });
    const executor = new StepExecutor<StepLease>({
      backend: leases,
      handler: options.handler,
      // pg-boss's retries of a job, plus its first run.
      maxAttempts: stepQueuePolicy.retryLimit + 1,
      workerId: id,
      logger: this.logger,
    });
    const handover = new TaskHandover({
      db: this.db,
      registry: this.registry,
      boss: this.boss,
      wake: (taskId) => this.schedule(taskId),
      ...(options.retainStoppedMs === undefined ? {} : { retainMs: options.retainStoppedMs }),
      logger: this.logger,
    });
    const monitor = new WorkerMonitor({
      registry: this.registry,
      identity: { id, host: os.hostname(), pid: process.pid, capacity },
      heartbeatMs: positiveInteger(options.heartbeatMs ?? 5000, 'heartbeatMs'),
      expiryMs: this.expiryMs,
      running: () => executor.runningTasks().length,
      onDeclaredDead: () =>
        executor.handedOver(new Error(`worker ${id} was declared dead; its tasks moved`)),
      reconcile: () => handover.reconcile(),
      logger: this.logger,
    });
    const pollMs = Math.max(500, options.pollMs ?? 1000);
    const retryDelaySecs = options.retryDelaySecs ?? stepQueuePolicy.retryDelay;
    return { id, capacity, pollMs, retryDelaySecs, executor, watch, handover, monitor, loops: [] };
  }
}

interface RunningWorker {
  readonly id: string;
  readonly capacity: number;
  readonly pollMs: number;
  readonly retryDelaySecs: number;
  readonly executor: StepExecutor<StepLease>;
  readonly watch: JobWatch;
  readonly handover: TaskHandover;
  readonly monitor: WorkerMonitor;
  readonly loops: string[];
}

/** A failed job's output as pg-boss stores it (it serialises an `Error` with its stack). */
function asJobOutput(error: unknown): object {
  return typeof error === 'object' && error !== null ? error : { value: String(error) };
}
