import type { Db } from '../../db/client';
import { WorkerRegistry } from './worker-registry';

/** A worker as /coding shows it. */
export interface WorkerView {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly capacity: number;
  /** Steps running at its last heartbeat. */
  readonly running: number;
  /** Active tasks placed on it. */
  readonly tasks: number;
  /** `late`: its heartbeat has expired but no monitor has taken it over yet. */
  readonly state: 'live' | 'late' | 'stopped';
  readonly startedAt: string;
  readonly heartbeatAt: string;
  readonly stoppedAt: string | null;
}

export interface ListWorkersOptions {
  readonly db: Db;
  readonly expiryMs: number;
  /** Stopped workers are listed for this long after they stopped (default 1 hour). */
  readonly showStoppedMs?: number;
  readonly clock?: () => Date;
}

/** The registered workers, live ones first, then those that stopped recently. */
export async function listWorkers(options: ListWorkersOptions): Promise<WorkerView[]> {
  const clock = options.clock ?? (() => new Date());
  const now = clock().getTime();
  const showStoppedMs = options.showStoppedMs ?? 60 * 60 * 1000;
  const workers = await new WorkerRegistry(options.db, clock).list();
  const views = workers
    .filter((w) => w.stoppedAt === null || now - w.stoppedAt.getTime() <= showStoppedMs)
    .map((w): WorkerView => ({
      id: w.id,
      host: w.host,
      pid: w.pid,
      capacity: w.capacity,
      running: w.stoppedAt === null ? w.running : 0,
      tasks: w.tasks,
      state:
        w.stoppedAt !== null
          ? 'stopped'
          : now - w.heartbeatAt.getTime() > options.expiryMs
            ? 'late'
            : 'live',
      startedAt: w.startedAt.toISOString(),
      heartbeatAt: w.heartbeatAt.toISOString(),
      stoppedAt: w.stoppedAt?.toISOString() ?? null,
    }));
  const order = { live: 0, late: 1, stopped: 2 } as const;
  return views.sort((a, b) => order[a.state] - order[b.state]);
}
