import type { Db } from '../db/client';
import { eventsSince } from '../db/event-store';
import { listenOn } from '../db/pg-listen';
import { eventChannel, parseEventNotice } from './cross-process-event-notifier';
import type { TaskEventBus } from './task-event-bus';

export interface EventListenerOptions {
  /** The PostgreSQL database the events are in. */
  readonly url: string;
  readonly db: Db;
  /** This process's bus: other processes' events are published on it once read. */
  readonly bus: TaskEventBus;
  /** This process's notifier origin: its own events were published when they committed. */
  readonly origin: string;
  readonly onError?: (error: unknown) => void;
}

export interface EventListener {
  close(): Promise<void>;
}

/**
 * Hears, on one dedicated connection, the NOTIFY each committed append sends, reads those events
 * from the database and publishes them on this process's bus: so a viewer on a web process sees
 * what a worker wrote as it commits. The rows, not the notice, are what is published, so an event
 * is never lost to a payload limit; a notice missed while the connection is down costs only
 * latency, since every stream also re-reads the database on a timer and fills gaps by seq.
 * Per task, reads run one at a time, so the bus gets each task's events in order.
 */
export async function listenForEvents(options: EventListenerOptions): Promise<EventListener> {
  const { db, bus, origin } = options;
  const onError = options.onError ?? ((error) => console.warn('shadowbox: event listener:', error));
  const pending = new Map<string, { from: number; to: number }>();
  const draining = new Set<string>();
  const state = { closed: false };

  const drain = async (taskId: string): Promise<void> => {
    draining.add(taskId);
    try {
      for (let range = pending.get(taskId); range !== undefined; range = pending.get(taskId)) {
        pending.delete(taskId);
        for (let after = range.from - 1; after < range.to && !state.closed;) {
          const batch = await eventsSince(db, taskId, after, Math.min(1000, range.to - after));
          if (batch.length === 0) break;
          for (const event of batch) bus.publish(taskId, event);
          after = batch.at(-1)?.seq ?? range.to;
        }
      }
    } catch (error) {
      onError(error);
    } finally {
      draining.delete(taskId);
    }
  };

  const hear = (payload: string): void => {
    const notice = parseEventNotice(payload);
    if (notice === null || notice.origin === origin || state.closed) return;
    const range = pending.get(notice.taskId);
    pending.set(
      notice.taskId,
      range === undefined
        ? { from: notice.from, to: notice.to }
        : { from: Math.min(range.from, notice.from), to: Math.max(range.to, notice.to) },
    );
    if (!draining.has(notice.taskId)) void drain(notice.taskId);
  };

  // The first connection must work: a process that cannot listen would serve stale viewers.
  const listener = await listenOn({
    url: options.url,
    channel: eventChannel,
    applicationName: 'shadowbox-events',
    hear,
    onError,
  });
  return {
    async close() {
      state.closed = true;
      await listener.close();
    },
  };
}
