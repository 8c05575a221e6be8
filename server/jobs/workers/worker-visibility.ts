import type { Actor } from '../../auth/actor';
import { seesWorkerHosts, workerAlias } from '../../auth/worker-alias';
import type { WorkerView } from './list-workers';

/** A worker as `actor` may see it (see `seesWorkerHosts`). */
export interface VisibleWorker extends Omit<WorkerView, 'host' | 'pid'> {
  readonly host: string | null;
  readonly pid: number | null;
}

export function workerFor(actor: Actor, worker: WorkerView): VisibleWorker {
  if (seesWorkerHosts(actor)) return worker;
  return { ...worker, id: workerAlias(worker.id), host: null, pid: null };
}
