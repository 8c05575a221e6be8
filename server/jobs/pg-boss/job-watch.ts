import type { JobsLogger } from '../lease-backend';

/** Reads which of the given pg-boss job ids are still `active`. */
export type ActiveJobsQuery = (jobIds: readonly string[]) => Promise<ReadonlySet<string>>;

/**
 * pg-boss 10 hands a running job no AbortSignal: a job cancelled by another process (a cancel from
 * a web process, a takeover by another worker's monitor) or expired by pg-boss's maintenance only
 * changes state in the database. The watch looks at the state of this process's running jobs
 * every `intervalMs` (one query for all of them) and reports each job that is no longer active,
 * whose step the executor then aborts, which kills its sandboxed processes through the step's signal.
 */
export class JobWatch {
  private readonly watched = new Map<string, (reason: Error) => void>();
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  constructor(
    private readonly activeJobs: ActiveJobsQuery,
    private readonly intervalMs: number,
    private readonly logger: JobsLogger,
  ) {}

  /** Calls `lost` once the job is no longer active. */
  watch(jobId: string, lost: (reason: Error) => void): void {
    this.watched.set(jobId, lost);
    this.timer ??= setInterval(() => void this.check(), this.intervalMs);
  }

  unwatch(jobId: string): void {
    this.watched.delete(jobId);
    if (this.watched.size === 0) this.close();
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One look (the timer calls it; tests may too). */
  async check(): Promise<void> {
    if (this.checking || this.watched.size === 0) return;
    this.checking = true;
    try {
      const ids = [...this.watched.keys()];
      const active = await this.activeJobs(ids);
      for (const id of ids) {
        if (active.has(id)) continue;
        const lost = this.watched.get(id);
        this.watched.delete(id);
        lost?.(new Error(`job ${id} is no longer active (cancelled, moved or expired)`));
      }
    } catch (error) {
      this.logger.error('[pg-boss] reading the state of running jobs failed', { error });
    } finally {
      this.checking = false;
    }
  }
}
