import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { backends, type ScratchDatabase } from '../test-support/scratch-databases';
import { AppError } from '../errors/app-error';
import { listAudit, recordAudit } from './audit-log';

for (const backend of backends) {
  describe.skipIf(backend.skip)(`audit log on ${backend.name}`, () => {
    let scratch: ScratchDatabase;
    let db: Db;
    beforeAll(async () => {
      scratch = await backend.create();
      await migrateDatabase(scratch.config);
      db = createDb({ database: scratch.config });
    });
    afterAll(async () => {
      await db.$disconnect();
      await scratch.drop();
    });

    it('records entries and lists them newest first, filtered by target', async () => {
      await recordAudit(db, {
        actor: 'cli',
        action: 'test.first',
        target: 'thing:a',
        details: { n: 1, nested: { ok: true }, list: ['x'] },
      });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await recordAudit(db, { actor: 'token:t1', action: 'test.second', target: 'thing:a' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await recordAudit(db, { actor: 'browser', action: 'test.other', target: 'thing:b' });
      await recordAudit(db, { actor: 'system', action: 'test.untargeted' });

      const forA = await listAudit(db, { target: 'thing:a' });
      expect(forA).toEqual([
        {
          id: expect.any(String) as string,
          actor: 'token:t1',
          actorUserId: null,
          action: 'test.second',
          target: 'thing:a',
          subjectUserId: null,
          details: null,
          createdAt: expect.any(Date) as Date,
        },
        {
          id: expect.any(String) as string,
          actor: 'cli',
          actorUserId: null,
          action: 'test.first',
          target: 'thing:a',
          subjectUserId: null,
          details: { n: 1, nested: { ok: true }, list: ['x'] },
          createdAt: expect.any(Date) as Date,
        },
      ]);
      const all = await listAudit(db);
      expect(all.map((entry) => entry.action).sort()).toEqual([
        'test.first',
        'test.other',
        'test.second',
        'test.untargeted',
      ]);
      expect(all.find((entry) => entry.action === 'test.untargeted')?.target).toBeNull();
      expect(await listAudit(db, { limit: 1, target: 'thing:a' })).toMatchObject([
        { action: 'test.second' },
      ]);
      expect(await listAudit(db, { target: 'thing:none' })).toEqual([]);
    });

    it('commits and rolls back with the transaction it is written in', async () => {
      await expect(
        db.$transaction(async (tx) => {
          await recordAudit(tx, { actor: 'cli', action: 'test.rolled-back', target: 'tx:1' });
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(await listAudit(db, { target: 'tx:1' })).toEqual([]);

      await db.$transaction(async (tx) => {
        await recordAudit(tx, { actor: 'cli', action: 'test.committed', target: 'tx:1' });
        // Visible inside the transaction through the same client.
        expect(await listAudit(tx, { target: 'tx:1' })).toHaveLength(1);
      });
      expect(await listAudit(db, { target: 'tx:1' })).toMatchObject([{ action: 'test.committed' }]);
    });

    it('refuses a bad limit and an entry without actor or action', async () => {
      for (const limit of [0, 1001, 1.5, Number.NaN]) {
        const error: unknown = await listAudit(db, { limit }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe('INVALID_ARGUMENT');
      }
      await expect(recordAudit(db, { actor: '', action: 'x' })).rejects.toThrow(
        'an audit entry needs an actor and an action',
      );
      await expect(recordAudit(db, { actor: 'cli', action: '' })).rejects.toThrow(AppError);
    });
  });
}
