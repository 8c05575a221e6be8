import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../db/client';
import type { StoredEvent } from '../db/event-store';
import {
  createPostgresDatabase,
  openMigratedDatabase,
  postgresAvailable,
  type MigratedDatabase,
} from '../test-support/scratch-databases';
import { listenForEvents, type EventListener } from './cross-process-event-listener';
import { postgresEventNotifier } from './cross-process-event-notifier';
import { PrismaTaskStore } from './prisma-task-store';
import { streamTaskEvents } from './stream-task-events';
import { TaskEventBus } from './task-event-bus';

// Two "processes" in one: each its own pool, bus and store, sharing only the database. The web's
// streams re-read the database only once a minute here, so events that arrive at all arrived
// through NOTIFY/LISTEN.
const skip = !postgresAvailable && process.env.SHADOWBOX_TEST_POSTGRES !== 'required';

describe.skipIf(skip)('task events across processes (PostgreSQL LISTEN/NOTIFY)', () => {
  let database: MigratedDatabase;
  let webDb: Db;
  let listener: EventListener;
  const webBus = new TaskEventBus();
  let worker: PrismaTaskStore;
  let workerBus: TaskEventBus;

  beforeAll(async () => {
    database = await openMigratedDatabase(createPostgresDatabase);
    const { config } = database.scratch;
    if (config.provider !== 'postgresql') throw new Error('expected PostgreSQL');
    workerBus = new TaskEventBus();
    worker = new PrismaTaskStore(database.db, workerBus, postgresEventNotifier('worker-1'));
    webDb = createDb({ database: config });
    listener = await listenForEvents({
      url: config.url,
      db: webDb,
      bus: webBus,
      origin: 'web-1',
    });
  });

  afterAll(async () => {
    await listener.close();
    await webDb.$disconnect();
    await database.close();
  });

  const newTask = async (): Promise<string> =>
    (
      await database.db.task.create({
        data: {
          sourceKind: 'git',
          sourceUrl: 'https://example.com/r.git',
          testCommand: ['pytest'],
        },
        select: { id: true },
      })
    ).id;

  it('a viewer on another process gets every event a worker commits, 1..N, once each', async () => {
    const taskId = await newTask();
    const viewing = new AbortController();
    const seen: StoredEvent[] = [];
    const total = 40;
    const stream = streamTaskEvents(
      { db: webDb, bus: webBus, eventPollMs: 60_000 },
      { taskId, afterSeq: 0, signal: viewing.signal },
    );
    const reading = (async () => {
      for await (const event of stream) {
        seen.push(event);
        if (event.seq === total) viewing.abort();
      }
    })();
    // Singly and several to a transaction (one notice for a range).
    await worker.emit(taskId, { type: 'task.preparing' });
    for (let i = 2; i <= total; i += 3) {
      await worker.transact(taskId, async (_tx, emit) => {
        for (let j = i; j < i + 3 && j <= total; j++) {
          await emit({ type: 'run.output', subject: 'baseline', iteration: 0, lines: [`${j}`] });
        }
      });
    }
    await reading;
    expect(seen.map((e) => e.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  });

  it("publishes another process's events on the local bus once, in order, and not its own", async () => {
    const taskId = await newTask();
    const heard: number[] = [];
    const done = new Promise<void>((resolve) => {
      const off = webBus.subscribe(taskId, (event) => {
        heard.push(event.seq);
        if (event.seq === 5) {
          off();
          resolve();
        }
      });
    });
    const ownHeard: number[] = [];
    workerBus.subscribe(taskId, (event) => ownHeard.push(event.seq));
    for (let i = 0; i < 5; i++) {
      await worker.emit(taskId, { type: 'run.output', subject: 'x', iteration: 0, lines: [] });
    }
    await done;
    expect(heard).toEqual([1, 2, 3, 4, 5]);
    // The writer's own bus has them from the writer, not again from its database notices.
    expect(ownHeard).toEqual([1, 2, 3, 4, 5]);
  });

  it('a rolled-back append announces nothing', async () => {
    const taskId = await newTask();
    const heard: number[] = [];
    webBus.subscribe(taskId, (event) => heard.push(event.seq));
    await expect(
      worker.transact(taskId, async (_tx, emit) => {
        await emit({ type: 'run.output', subject: 'x', iteration: 0, lines: [] });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const committed = new Promise<void>((resolve) => {
      webBus.subscribe(taskId, (event) => event.seq === 1 && resolve());
    });
    await worker.emit(taskId, { type: 'run.output', subject: 'y', iteration: 0, lines: [] });
    await committed;
    const rows = await database.db.event.findMany({ where: { taskId } });
    expect(rows.map((r) => [r.seq, r.type, r.payload])).toEqual([
      [1, 'run.output', { subject: 'y', iteration: 0, lines: [] }],
    ]);
    expect(heard).toEqual([1]);
  });
});
