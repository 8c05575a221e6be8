import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backends,
  openMigratedDatabase,
  type MigratedDatabase,
} from '../test-support/scratch-databases';
import { listAudit, recordAudit } from './audit-log';

// PostgreSQL passes the trigger's message through; Prisma's SQLite adapter reports any
// constraint-class abort (a trigger's RAISE included) as "Foreign key constraint violated".
const refusal = (name: string): RegExp =>
  name === 'SQLite' ? /constraint violated/ : /the audit log is append-only/;

describe.each(backends)('the audit log on $name', ({ name, create, skip }) => {
  let database: MigratedDatabase;

  beforeAll(async () => {
    if (skip) return;
    database = await openMigratedDatabase(create);
    await recordAudit(database.db, { actor: 'alice', action: 'task.approve', target: 'T1' });
  }, 120_000);

  afterAll(async () => {
    // Unset when the suite is skipped (no PostgreSQL here).
    await (database as MigratedDatabase | undefined)?.close();
  });

  it.skipIf(skip)('refuses to rewrite a row (the database says append-only)', async () => {
    await expect(
      database.db.auditLog.updateMany({ where: { target: 'T1' }, data: { actor: 'mallory' } }),
    ).rejects.toThrow(refusal(name));
    expect((await listAudit(database.db, { target: 'T1' }))[0]?.actor).toBe('alice');
  });

  it.skipIf(skip)('refuses to delete a row', async () => {
    await expect(database.db.auditLog.deleteMany({ where: { target: 'T1' } })).rejects.toThrow(
      refusal(name),
    );
    expect(await listAudit(database.db, { target: 'T1' })).toHaveLength(1);
  });
});
