import type { Db } from '../../db/client';
import { JobQueue, isLocalWorkerAlive, newWorkerId } from './job-queue';
import type { StepHandler } from '../lease-backend';
import { JobRunner, type JobRunnerOptions } from './job-runner';
import type { TaskJobs } from '../task-jobs';

export interface InProcessTaskJobsOptions {
  readonly db: Db;
  readonly handler: StepHandler;
  /** Steps at once. */
  readonly concurrency: number;
  readonly workerId?: string;
  /** The runner's timings (tests shorten them). */
  readonly timings?: Pick<JobRunnerOptions, 'leaseMs' | 'pollMs' | 'retryDelayMs'>;
  readonly logger?: JobRunnerOptions['logger'];
}

/**
 * The embedded default (SQLite, one process): the `Job` table with its leases (`JobQueue`) and
 * this process's `JobRunner`. A cancel reaches the step directly, since it runs here.
 */
export class InProcessTaskJobs implements TaskJobs {
  readonly workerId: string;
  private readonly queue: JobQueue;
  private readonly runner: JobRunner;

  constructor(options: InProcessTaskJobsOptions) {
    this.workerId = options.workerId ?? newWorkerId();
    this.queue = new JobQueue(options.db);
    this.runner = new JobRunner({
      queue: this.queue,
      workerId: this.workerId,
      concurrency: options.concurrency,
      handler: options.handler,
      ...options.timings,
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
  }

  /** Releases the jobs a dead process of this machine held, then starts the runner. */
  async start(): Promise<void> {
    await this.queue.releaseDeadWorkers(isLocalWorkerAlive);
    this.runner.start();
  }

  async stop(): Promise<void> {
    await this.runner.stop();
  }

  async schedule(taskId: string): Promise<void> {
    await this.queue.enqueue(taskId);
    this.runner.wake();
  }

  interrupt(taskId: string): void {
    this.runner.abort(taskId, new Error(`task ${taskId} was cancelled`));
  }
}
