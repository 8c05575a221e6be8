import type { Db } from '../../db/client';
import { activeStatuses } from '../../engine/loop';
import type { WorkerLoad } from './placement';

/** A worker process as it registers itself. */
export interface WorkerIdentity {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly capacity: number;
}

/** A worker as the registry lists it (the /coding page, the monitor). */
export interface WorkerRecord extends WorkerIdentity {
  readonly running: number;
  readonly startedAt: Date;
  readonly heartbeatAt: Date;
  readonly stoppedAt: Date | null;
  /** Active tasks placed on it. */
  readonly tasks: number;
}

const activeStatusList = [...activeStatuses];

/**
 * The `Worker` table: who is alive, how busy, and which workers have stopped. A worker is live
 * while it has not stopped and its last heartbeat is younger than the expiry. Times are this
 * process's clock against the heartbeat writer's: the machines' clocks must agree (NTP) to well
 * under the expiry.
 */
export class WorkerRegistry {
  constructor(
    private readonly db: Db,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Adds the worker (or brings a stopped one with the same id back), live from now. */
  async register(worker: WorkerIdentity): Promise<void> {
    const now = this.clock();
    const fields = { ...worker, running: 0, heartbeatAt: now, stoppedAt: null };
    await this.db.worker.upsert({
      where: { id: worker.id },
      create: { ...fields, startedAt: now },
      update: fields,
    });
  }

  /** Records a heartbeat. False: the worker was stopped meanwhile (drained, or found dead). */
  async beat(id: string, running: number): Promise<boolean> {
    const { count } = await this.db.worker.updateMany({
      where: { id, stoppedAt: null },
      data: { heartbeatAt: this.clock(), running },
    });
    return count === 1;
  }

  /** Marks the worker stopped (a drain); its tasks are then moved by whoever hands them over. */
  async stop(id: string): Promise<void> {
    await this.db.worker.updateMany({
      where: { id, stoppedAt: null },
      data: { stoppedAt: this.clock(), running: 0 },
    });
  }

  /**
   * Marks every worker whose heartbeat is older than `expiryMs` stopped, each with a compare-and-set
   * on the heartbeat it was found with, so of several monitors exactly one takes a dead worker
   * over. Returns the ids this call stopped.
   */
  async expire(expiryMs: number): Promise<string[]> {
    const now = this.clock();
    const cutoff = new Date(now.getTime() - expiryMs);
    const expired = await this.db.worker.findMany({
      where: { stoppedAt: null, heartbeatAt: { lt: cutoff } },
      select: { id: true },
    });
    const stopped: string[] = [];
    for (const { id } of expired) {
      const { count } = await this.db.worker.updateMany({
        where: { id, stoppedAt: null, heartbeatAt: { lt: cutoff } },
        data: { stoppedAt: now, running: 0 },
      });
      if (count === 1) stopped.push(id);
    }
    return stopped;
  }

  /** The live workers with their load, for placement. */
  async live(expiryMs: number): Promise<WorkerLoad[]> {
    const cutoff = new Date(this.clock().getTime() - expiryMs);
    const workers = await this.db.worker.findMany({
      where: { stoppedAt: null, heartbeatAt: { gte: cutoff } },
      select: { id: true, capacity: true, running: true },
    });
    const tasks = await this.taskCounts(workers.map((w) => w.id));
    return workers.map((w) => ({ ...w, tasks: tasks.get(w.id) ?? 0 }));
  }

  /** Ids of the workers that stopped after `since` (their queues may still hold jobs). */
  async stoppedSince(since: Date): Promise<string[]> {
    const rows = await this.db.worker.findMany({
      where: { stoppedAt: { gte: since } },
      select: { id: true },
    });
    return rows.map((row) => row.id);
  }

  /** Deletes the rows of workers stopped before `before`; returns their ids. */
  async forget(before: Date): Promise<string[]> {
    const rows = await this.db.worker.findMany({
      where: { stoppedAt: { lt: before } },
      select: { id: true },
    });
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    await this.db.worker.deleteMany({ where: { id: { in: ids }, stoppedAt: { lt: before } } });
    return ids;
  }

  /** Every registered worker, newest first, with its active task count. */
  async list(): Promise<WorkerRecord[]> {
    const workers = await this.db.worker.findMany({ orderBy: { startedAt: 'desc' } });
    const tasks = await this.taskCounts(workers.map((w) => w.id));
    return workers.map((w) => ({
      id: w.id,
      host: w.host,
      pid: w.pid,
      capacity: w.capacity,
      running: w.running,
      startedAt: w.startedAt,
      heartbeatAt: w.heartbeatAt,
      stoppedAt: w.stoppedAt,
      tasks: tasks.get(w.id) ?? 0,
    }));
  }

  /** Now, on the clock the registry compares heartbeats with. */
  now(): Date {
    return this.clock();
  }

  private async taskCounts(workerIds: string[]): Promise<Map<string, number>> {
    if (workerIds.length === 0) return new Map();
    const groups = await this.db.task.groupBy({
      by: ['workerId'],
      where: { workerId: { in: workerIds }, status: { in: activeStatusList } },
      _count: { _all: true },
    });
    return new Map(groups.map((g) => [g.workerId ?? '', g._count._all]));
  }
}
