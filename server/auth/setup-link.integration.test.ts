import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createSqliteDatabase,
  openMigratedDatabase,
  type MigratedDatabase,
} from '../test-support/scratch-databases';
import { testPassword } from '../test-support/test-password';
import { addPerson } from './people';
import {
  checkSetupLink,
  createSetupLink,
  redeemSetupLink,
  setupLinkLifetimeMs,
  setupLinkUrl,
} from './setup-link';

describe('the one-time set-up link', () => {
  let database: MigratedDatabase;

  beforeEach(async () => {
    database = await openMigratedDatabase(createSqliteDatabase);
  }, 60_000);

  afterEach(async () => {
    await database.close();
  });

  const admin = (secret: string, username = 'root') =>
    redeemSetupLink(database.db, { secret, username, password: testPassword });

  it('creates the first admin once; the same link is refused afterwards', async () => {
    const link = await createSetupLink(database.db);
    expect(link).not.toBeNull();
    const secret = link?.secret ?? '';
    expect(setupLinkUrl('http://127.0.0.1:3000', secret)).toBe(
      `http://127.0.0.1:3000/setup?token=${secret}`,
    );
    expect(await checkSetupLink(database.db, secret)).toBe(true);
    await expect(admin(secret)).resolves.toMatchObject({ username: 'root', role: 'admin' });
    expect(await checkSetupLink(database.db, secret)).toBe(false);
    await expect(admin(secret, 'mallory')).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message:
        'this set-up link is not valid: it was used, it expired, or an account already exists',
    });
    expect(await database.db.user.count()).toBe(1);
  });

  it('refuses an expired link and makes nobody', async () => {
    const made = new Date(Date.now() - setupLinkLifetimeMs - 1000);
    const link = await createSetupLink(database.db, made);
    const secret = link?.secret ?? '';
    expect(await checkSetupLink(database.db, secret)).toBe(false);
    await expect(admin(secret)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await database.db.user.count()).toBe(0);
  });

  it('refuses a guessed secret', async () => {
    await createSetupLink(database.db);
    await expect(admin('not-the-secret')).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await database.db.user.count()).toBe(0);
  });

  it('is not offered, and an earlier link stops working, once someone has an account', async () => {
    const link = await createSetupLink(database.db);
    await addPerson(database.db, { username: 'alice', password: testPassword, role: 'admin' });
    expect(await createSetupLink(database.db)).toBeNull();
    await expect(admin(link?.secret ?? '')).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('stores only the hash of the secret', async () => {
    const link = await createSetupLink(database.db);
    const rows = await database.db.setupLink.findMany();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(link?.secret ?? '?');
  });
});
