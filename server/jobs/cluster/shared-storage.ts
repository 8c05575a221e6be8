import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client';
import type { BundleStore } from '../../engine/workspace';
import type { DatabaseConfig } from '../../env';
import { listenForEvents } from '../../tasks/cross-process-event-listener';
import {
  postgresEventNotifier,
  type EventNotifier,
} from '../../tasks/cross-process-event-notifier';
import type { TaskEventBus } from '../../tasks/task-event-bus';
import { PrismaBundleStore } from './prisma-bundle-store';

/**
 * What processes that share only PostgreSQL need beyond the rows: each other's events as they
 * commit (NOTIFY in the appending transaction, one LISTEN connection per process) and the git
 * data of every source and checkpoint (bundles), since no disk is shared. With SQLite everything
 * runs in one process on one disk, so there is nothing to share and nothing changes.
 */
export interface SharedStorage {
  /** For the task store: announces appended events to the other processes. */
  readonly notifier: EventNotifier | null;
  readonly bundles: BundleStore | undefined;
  close(): Promise<void>;
}

export async function openSharedStorage(options: {
  readonly database: DatabaseConfig;
  readonly db: Db;
  readonly bus: TaskEventBus;
}): Promise<SharedStorage> {
  const { database, db, bus } = options;
  if (database.provider === 'sqlite') {
    return { notifier: null, bundles: undefined, close: () => Promise.resolve() };
  }
  const origin = randomUUID();
  const listener = await listenForEvents({ url: database.url, db, bus, origin });
  return {
    notifier: postgresEventNotifier(origin),
    bundles: new PrismaBundleStore(db),
    close: () => listener.close(),
  };
}
