import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { httpStatusOf, isAppError } from '../errors/app-error';
import { defaultGitUrlPolicy } from '../engine/intake/git-url-policy';
import { systemClock } from '../engine/ports';
import type { Hypothesis } from '../engine/shadow/hypothesis';
import { workspaceLayout } from '../engine/workspace/workspace-layout';
import { PrismaTaskStore } from './prisma-task-store';
import { TaskEventBus } from './task-event-bus';
import { TaskService } from './task-service';
import { cliActor, personOf, type Actor } from '../auth/actor';
import { tokenIn } from '../test-support/actors';
import {
  backends,
  openMigratedDatabase,
  type MigratedDatabase,
} from '../test-support/scratch-databases';

const batch = (prefix: string, count: number): Hypothesis[] =>
  Array.from({ length: count }, (_, i) => ({
    name: `${prefix}-${i}`,
    edits: [{ path: 'calc.py', content: `# ${prefix} ${i}\n` }],
    delete: [],
  }));

for (const backend of backends) {
  describe.skipIf(backend.skip)(`the hypothesis inbox on ${backend.name}`, () => {
    let database: MigratedDatabase;
    let db: Db;
    let dataDir: string;
    let scheduled: string[];
    /** The agent token of the tasks' owner. */
    let agent: Actor;

    /** A service on the real database whose tasks never run: what is pending stays pending. */
    const service = (maxPendingHypotheses?: number): TaskService => {
      const bus = new TaskEventBus();
      return new TaskService({
        db,
        store: new PrismaTaskStore(db, bus),
        bus,
        layout: workspaceLayout(dataDir),
        gitPolicy: defaultGitUrlPolicy,
        clock: systemClock,
        maxPendingHypotheses,
        scheduler: {
          schedule: (taskId) => Promise.resolve(void scheduled.push(taskId)),
          interrupt: () => undefined,
        },
      });
    };

    const newTask = async (): Promise<string> =>
      (
        await db.task.create({
          data: {
            sourceKind: 'git',
            sourceUrl: 'https://example.com/r.git',
            testCommand: ['python3', '-m', 'pytest'],
            ownerId: personOf(agent)?.id,
          },
          select: { id: true },
        })
      ).id;

    /** What a refusal must leave as it was. */
    const snapshot = async (taskId: string) => ({
      pending: await db.hypothesis.count({ where: { taskId, iterationId: null } }),
      events: await db.event.count({ where: { taskId } }),
      audit: await db.auditLog.count({ where: { target: taskId } }),
      lastEventId: (await db.task.findUniqueOrThrow({ where: { id: taskId } })).lastEventId,
    });

    beforeAll(async () => {
      database = await openMigratedDatabase(backend.create);
      db = database.db;
      agent = await tokenIn(db, 'alice', ['agent']);
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-inbox-'));
    });
    afterAll(async () => {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    });
    beforeEach(() => {
      scheduled = [];
    });

    it('refuses the 65th pending hypothesis with 409 INBOX_FULL', async () => {
      const tasks = service();
      const id = await newTask();
      for (let i = 0; i < 4; i += 1) {
        await expect(tasks.submitHypotheses(id, batch(`b${i}`, 16), agent)).resolves.toEqual({
          accepted: batch(`b${i}`, 16).map((h) => h.name),
        });
      }
      const before = await snapshot(id);
      expect(before.pending).toBe(64);

      const refusal = await tasks.submitHypotheses(id, batch('one-more', 1), agent).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refusal).toMatchObject({
        code: 'INBOX_FULL',
        message: `task ${id} already holds 64 pending hypotheses (the cap is 64); wait for the iteration to run them`,
        details: { pending: 64, submitted: 1, cap: 64 },
      });
      expect(isAppError(refusal) && httpStatusOf(refusal.code)).toBe(409);
      expect(await snapshot(id)).toEqual(before);
      expect(scheduled).toHaveLength(4);
      expect((await tasks.getTask(id, cliActor)).pendingHypotheses).toHaveLength(64);
    });

    it('refuses a submission that would pass the cap whole, and takes one that fits', async () => {
      const tasks = service(10);
      const id = await newTask();
      await tasks.submitHypotheses(id, batch('first', 8), agent);
      const before = await snapshot(id);
      await expect(tasks.submitHypotheses(id, batch('second', 3), agent)).rejects.toMatchObject({
        code: 'INBOX_FULL',
        message: `task ${id} holds 8 pending hypotheses and takes at most 10: send at most 2 more (not 3), or wait for the iteration to run them`,
      });
      expect(await snapshot(id)).toEqual(before);
      await expect(tasks.submitHypotheses(id, batch('second', 2), agent)).resolves.toMatchObject({
        accepted: ['second-0', 'second-1'],
      });
      expect((await snapshot(id)).pending).toBe(10);
    });

    it('lets exactly as many concurrent submissions in as the cap has room for', async () => {
      const tasks = service(64);
      const id = await newTask();
      for (let i = 0; i < 3; i += 1) await tasks.submitHypotheses(id, batch(`fill${i}`, 16), agent);
      await tasks.submitHypotheses(id, batch('fill3', 13), agent);
      // Room for 3 more; 12 single submissions race for it.
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) =>
          tasks.submitHypotheses(id, batch(`race${i}`, 1), agent),
        ),
      );
      const accepted = results.filter((r) => r.status === 'fulfilled');
      const refused = results.filter((r) => r.status === 'rejected');
      expect(accepted).toHaveLength(3);
      for (const r of refused) expect(r.reason).toMatchObject({ code: 'INBOX_FULL' });
      expect((await snapshot(id)).pending).toBe(64);
    });

    it('refuses more than 16 hypotheses in one submission', async () => {
      const tasks = service();
      const id = await newTask();
      await expect(tasks.submitHypotheses(id, batch('big', 17), agent)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: 'send at most 16 hypotheses at once, got 17',
      });
      expect((await snapshot(id)).pending).toBe(0);
    });
  });
}
