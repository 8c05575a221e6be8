import { setTimeout as sleep } from 'node:timers/promises';
import { eventsSince, type StoredEvent } from '../db/event-store';
import { AppError } from '../errors/app-error';
import type { TaskServiceDeps } from './task-service-deps';

export type StreamTaskEventsDeps = Pick<TaskServiceDeps, 'db' | 'bus' | 'eventPollMs'>;

export interface StreamTaskEventsOptions {
  readonly taskId: string;
  /** The last sequence number the reader has; the stream starts after it. */
  readonly afterSeq: number;
  readonly signal: AbortSignal;
}

/**
 * Backlog from the database, then live events as this process commits them. The sequence
 * numbers decide: a repeat is dropped, a gap (an event committed by another process, or
 * delivered out of order) is filled from the database, which is also re-read every few seconds.
 */
export async function* streamTaskEvents(
  deps: StreamTaskEventsDeps,
  { taskId, afterSeq, signal }: StreamTaskEventsOptions,
): AsyncIterable<StoredEvent> {
  const { db, bus } = deps;
  const exists = await db.task.findUnique({ where: { id: taskId }, select: { id: true } });
  if (exists === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
  const live: StoredEvent[] = [];
  const waiting = { wake: null as (() => void) | null };
  // Subscribed before the backlog is read, so nothing committed in between is missed.
  const unsubscribe = bus.subscribe(taskId, (event) => {
    live.push(event);
    waiting.wake?.();
  });
  const onAbort = () => waiting.wake?.();
  signal.addEventListener('abort', onAbort);
  let seen = afterSeq;
  try {
    let catchUp = true;
    while (!isAborted(signal)) {
      if (catchUp) {
        const batch = await eventsSince(db, taskId, seen, 500);
        for (const event of batch) {
          if (isAborted(signal)) return;
          seen = event.seq;
          yield event;
        }
        catchUp = batch.length === 500;
        continue;
      }
      const next = live.shift();
      if (next === undefined) {
        const woken = await Promise.race([
          new Promise<boolean>((resolve) => (waiting.wake = () => resolve(true))),
          sleep(deps.eventPollMs ?? 2000, false, { ref: false }),
        ]);
        waiting.wake = null;
        catchUp = !woken;
      } else if (next.seq === seen + 1) {
        seen = next.seq;
        yield next;
      } else if (next.seq > seen + 1) {
        catchUp = true;
      }
    }
  } finally {
    unsubscribe();
    signal.removeEventListener('abort', onAbort);
  }
}

/** Notifies whenever any task has new events (the task list), until `signal` aborts. */
export async function* streamTaskChanges(
  deps: Pick<TaskServiceDeps, 'bus'>,
  { signal }: { readonly signal: AbortSignal },
): AsyncIterable<{ readonly taskId: string; readonly seq: number }> {
  const queue: { taskId: string; seq: number }[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = deps.bus.subscribeAll((taskId, seq) => {
    queue.push({ taskId, seq });
    wake?.();
  });
  const onAbort = () => wake?.();
  signal.addEventListener('abort', onAbort);
  try {
    while (!isAborted(signal)) {
      const next = queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  } finally {
    unsubscribe();
    signal.removeEventListener('abort', onAbort);
  }
}

// Read through functions: the stream's awaits change these behind the type checker's back.
const isAborted = (signal: AbortSignal): boolean => signal.aborted;
