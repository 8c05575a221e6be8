/** What placement knows of a live worker. */
export interface WorkerLoad {
  readonly id: string;
  /** Task steps it runs at once. */
  readonly capacity: number;
  /** Task steps it ran at its last heartbeat. */
  readonly running: number;
  /** Active tasks placed on it (their worktrees live on its disk). */
  readonly tasks: number;
}

/**
 * The worker a task without a live worker goes to: the least busy one (running / capacity), then
 * the one holding the fewest active tasks (the running counts are only as fresh as the last
 * heartbeat, so a burst of new tasks is spread by the task counts, which are read live), then the
 * smallest id, so every process that asks at once gets the same answer. Null: no worker can take it.
 */
export function chooseWorker(workers: readonly WorkerLoad[]): string | null {
  let best: WorkerLoad | null = null;
  for (const worker of workers) {
    if (!(worker.capacity > 0)) continue;
    if (best === null || compareLoad(worker, best) < 0) best = worker;
  }
  return best?.id ?? null;
}

function compareLoad(a: WorkerLoad, b: WorkerLoad): number {
  // Cross-multiplied, so 1/2 and 2/4 compare equal without floating point.
  const busy = a.running * b.capacity - b.running * a.capacity;
  if (busy !== 0) return busy;
  if (a.tasks !== b.tasks) return a.tasks - b.tasks;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
