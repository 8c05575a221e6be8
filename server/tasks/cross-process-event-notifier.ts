import type { Tx } from '../db/transaction';

/** The PostgreSQL channel every process LISTENs on for other processes' task events. */
export const eventChannel = 'shadowbox_events';

/** What a notification says: which task's events `from`..`to` committed, and who wrote them. */
export interface EventNotice {
  readonly taskId: string;
  readonly from: number;
  readonly to: number;
  /** The writing process (its own notices it has published already). */
  readonly origin: string;
}

/**
 * Tells other processes about events inside the transaction that appends them. PostgreSQL
 * delivers a NOTIFY only when (and if) that transaction commits, so a listener never hears of an
 * event it cannot read yet, and a rolled-back append announces nothing.
 */
export interface EventNotifier {
  readonly origin: string;
  notify(tx: Tx, notice: Omit<EventNotice, 'origin'>): Promise<void>;
}

export function postgresEventNotifier(origin: string): EventNotifier {
  return {
    origin,
    async notify(tx, notice) {
      const payload = JSON.stringify({ ...notice, origin } satisfies EventNotice);
      await tx.$executeRaw`SELECT pg_notify(${eventChannel}, ${payload})`;
    },
  };
}

export function parseEventNotice(payload: string | undefined): EventNotice | null {
  if (payload === undefined) return null;
  try {
    const value = JSON.parse(payload) as Partial<Record<keyof EventNotice, unknown>>;
    const { taskId, from, to, origin } = value;
    if (
      typeof taskId === 'string' &&
      typeof origin === 'string' &&
      Number.isInteger(from) &&
      Number.isInteger(to)
    ) {
      return { taskId, from: from as number, to: to as number, origin };
    }
  } catch {
    // not ours
  }
  return null;
}
