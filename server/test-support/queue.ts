import { spawn } from 'node:child_process';
import type { Db } from '../db/client';

/** Test support for the queue suites (their database: `openMigratedDatabase`). */

/** A task row for jobs to belong to; never run. */
export async function newTask(db: Db): Promise<string> {
  const task = await db.task.create({
    data: { sourceKind: 'git', sourceUrl: 'https://example.com/r.git', testCommand: ['true'] },
  });
  return task.id;
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The pid of a process that has exited and been reaped: no process has it (until reused). */
export function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => {
      if (child.pid === undefined) reject(new Error('the child has no pid'));
      else resolve(child.pid);
    });
  });
}

/** Rejects with the signal's reason once it aborts (a step that honours its signal). */
export function abortedWith(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = (): void => reject(signal.reason as Error);
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}
