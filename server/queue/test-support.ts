import { spawn } from 'node:child_process';
import { createDb, type Db } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import type { ScratchDatabase } from '../db/test-databases';

/** Test support for the queue suites: a migrated scratch database and small helpers. */
export interface QueueDatabase {
  scratch: ScratchDatabase;
  db: Db;
  close(): Promise<void>;
}

export async function openQueueDatabase(create: () => Promise<ScratchDatabase>) {
  const scratch = await create();
  await migrateDatabase(scratch.config);
  const db = createDb({ database: scratch.config });
  return {
    scratch,
    db,
    close: async () => {
      await db.$disconnect();
      await scratch.drop();
    },
  } satisfies QueueDatabase;
}

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
