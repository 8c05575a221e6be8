import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../audit/audit-log';
import { createDb, type Db } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import {
  backends,
  createSqliteDatabase,
  queryRows,
  type ScratchDatabase,
} from '../test-support/scratch-databases';
import { AppError } from '../errors/app-error';
import { userIn } from '../test-support/actors';
import { personOf, type Actor, type Person } from './actor';
import {
  LAST_USED_WRITE_INTERVAL_MS,
  authenticateBearer,
  createApiToken,
  hashToken,
  listApiTokens,
  revokeApiToken,
} from './api-tokens';
import { disablePerson } from './people';
import { requireTokenScope } from './permissions';

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError, the promise resolved');
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(`API tokens on ${backend.name}`, () => {
    let scratch: ScratchDatabase;
    let db: Db;
    /** An author (agent tokens only) and a reviewer (agent and reviewer tokens), signed in. */
    let alice: Actor;
    let rita: Actor;
    const person = (actor: Actor): Person => {
      const found = personOf(actor);
      if (found === null) throw new Error('no person');
      return found;
    };
    beforeAll(async () => {
      scratch = await backend.create();
      await migrateDatabase(scratch.config);
      db = createDb({ database: scratch.config });
      alice = await userIn(db, 'alice', 'author');
      rita = await userIn(db, 'rita', 'reviewer');
    });
    afterAll(async () => {
      await db.$disconnect();
      await scratch.drop();
    });

    const lastUsedAt = async (id: string) =>
      (await db.apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt;

    it('create → authenticate → scopes → revoke → refused', async () => {
      const created = await createApiToken(db, {
        user: 'alice',
        scopes: ['agent'],
        name: 'ci agent',
      });
      expect(created).toEqual({
        id: expect.any(String) as string,
        user: 'alice',
        token: expect.stringMatching(/^sbx_[A-Za-z0-9_-]{43}$/) as string,
        scopes: ['agent'],
        name: 'ci agent',
      });

      const actor = await authenticateBearer(db, `Bearer ${created.token}`);
      // The token acts as its owner, as they are now.
      expect(actor).toEqual({
        kind: 'token',
        tokenId: created.id,
        scopes: ['agent'],
        person: person(alice),
      });
      expect(() => {
        requireTokenScope(actor, 'agent');
      }).not.toThrow();
      // An agent token is refused for reviewer actions (approve / reject).
      const forbidden = (() => {
        try {
          requireTokenScope(actor, 'reviewer');
        } catch (error) {
          return error;
        }
        return undefined;
      })();
      expect(forbidden).toBeInstanceOf(AppError);
      expect((forbidden as AppError).code).toBe('FORBIDDEN');

      const revoked = await revokeApiToken(db, created.id);
      expect(revoked).toMatchObject({ id: created.id, alreadyRevoked: false });
      expect(revoked.revokedAt).toBeInstanceOf(Date);

      const refused = await rejection(authenticateBearer(db, `Bearer ${created.token}`));
      expect(refused.code).toBe('UNAUTHENTICATED');
      expect(refused.message).toBe('invalid or revoked API token');
    });

    it('a reviewer token passes reviewer checks; scopes are deduplicated and ordered', async () => {
      const created = await createApiToken(db, {
        user: 'rita',
        scopes: ['reviewer', 'agent', 'reviewer'],
      });
      expect(created.scopes).toEqual(['agent', 'reviewer']);
      expect(created.name).toBe('unnamed');
      const actor = await authenticateBearer(db, `bearer ${created.token}`);
      expect(actor).toEqual({
        kind: 'token',
        tokenId: created.id,
        scopes: ['agent', 'reviewer'],
        person: person(rita),
      });
      expect(() => {
        requireTokenScope(actor, 'reviewer');
      }).not.toThrow();
    });

    it("refuses a token beyond its user's role, for an unknown user, or made by a token", async () => {
      const before = await db.apiToken.count();
      const beyond = await rejection(createApiToken(db, { user: 'alice', scopes: ['reviewer'] }));
      expect(beyond.code).toBe('FORBIDDEN');
      expect(beyond.message).toBe(
        "alice is an author: a token cannot have the 'reviewer' scope beyond its user's rights",
      );
      const unknown = await rejection(createApiToken(db, { user: 'nobody', scopes: ['agent'] }));
      expect(unknown.code).toBe('NOT_FOUND');
      const aliceToken = await authenticateBearer(
        db,
        `Bearer ${(await createApiToken(db, { user: 'alice', scopes: ['agent'] })).token}`,
      );
      const byToken = await rejection(
        createApiToken(db, { user: 'alice', scopes: ['agent'], actor: aliceToken }),
      );
      expect(byToken.code).toBe('FORBIDDEN');
      // A person makes their own tokens, not someone else's.
      const forOther = await rejection(
        createApiToken(db, { user: 'rita', scopes: ['agent'], actor: alice }),
      );
      expect(forOther.code).toBe('FORBIDDEN');
      expect(await db.apiToken.count()).toBe(before + 1);
    });

    it("refuses a disabled user's tokens", async () => {
      const dora = await userIn(db, 'dora', 'author');
      const created = await createApiToken(db, { user: 'dora', scopes: ['agent'], actor: dora });
      await authenticateBearer(db, `Bearer ${created.token}`);
      await disablePerson(db, 'dora');
      const refused = await rejection(authenticateBearer(db, `Bearer ${created.token}`));
      expect(refused.code).toBe('UNAUTHENTICATED');
      const again = await rejection(createApiToken(db, { user: 'dora', scopes: ['agent'] }));
      expect(again.code).toBe('FORBIDDEN');
    });

    it('says the same thing for an unknown token as for a revoked one', async () => {
      const unknown = await rejection(authenticateBearer(db, `Bearer sbx_${'x'.repeat(43)}`));
      expect(unknown.code).toBe('UNAUTHENTICATED');
      expect(unknown.message).toBe('invalid or revoked API token');
      const missing = await rejection(authenticateBearer(db, null));
      expect(missing.message).toMatch(/^missing Authorization header/);
      const malformed = await rejection(authenticateBearer(db, 'Basic dXNlcjpwdw=='));
      expect(malformed.message).toMatch(/^malformed Authorization header/);
    });

    it('refuses bad scopes before writing anything', async () => {
      const before = await db.apiToken.count();
      const bad = await rejection(
        createApiToken(db, { user: 'rita', scopes: ['agent', 'admin'] as unknown as ['agent'] }),
      );
      expect(bad.code).toBe('INVALID_ARGUMENT');
      expect(bad.message).toContain('"admin"');
      const empty = await rejection(createApiToken(db, { user: 'rita', scopes: [] }));
      expect(empty.code).toBe('INVALID_ARGUMENT');
      expect(await db.apiToken.count()).toBe(before);
    });

    it('stores the SHA-256 of the token, never the token', async () => {
      const created = await createApiToken(db, {
        user: 'alice',
        scopes: ['agent'],
        name: 'hash check',
      });
      const rows = await queryRows(
        scratch.config,
        `SELECT * FROM "ApiToken" WHERE "id" = '${created.id}'`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.hash).toBe(hashToken(created.token));
      expect(rows[0]?.hash).toMatch(/^[0-9a-f]{64}$/);
      const secret = created.token.slice('sbx_'.length);
      for (const [column, value] of Object.entries(rows[0] ?? {})) {
        expect(JSON.stringify(value), column).not.toContain(secret);
      }
      // Nor anywhere in the audit log.
      const audit = await queryRows(scratch.config, 'SELECT * FROM "AuditLog"');
      expect(JSON.stringify(audit)).not.toContain(secret);
    });

    it('lists tokens without hashes, revoked ones marked', async () => {
      const kept = await createApiToken(db, { user: 'alice', scopes: ['agent'], name: 'kept' });
      const gone = await createApiToken(db, { user: 'rita', scopes: ['reviewer'], name: 'gone' });
      await revokeApiToken(db, gone.id);
      const list = await listApiTokens(db);
      const byId = new Map(list.map((token) => [token.id, token]));
      expect(byId.get(kept.id)).toEqual({
        id: kept.id,
        user: 'alice',
        name: 'kept',
        scopes: ['agent'],
        createdAt: expect.any(Date) as Date,
        lastUsedAt: null,
        revokedAt: null,
      });
      expect(byId.get(gone.id)?.revokedAt).toBeInstanceOf(Date);
      for (const token of list) expect(Object.keys(token)).not.toContain('hash');
      expect(JSON.stringify(list)).not.toContain(hashToken(kept.token));

      // A person lists only their own tokens; the CLI (and an admin) one user's on request.
      const alices = await listApiTokens(db, { actor: alice });
      expect(alices.map((token) => token.id)).toContain(kept.id);
      expect(alices.every((token) => token.user === 'alice')).toBe(true);
      expect((await listApiTokens(db, { actor: alice, user: 'rita' })).map((t) => t.user)).toEqual(
        alices.map(() => 'alice'),
      );
      const ritas = await listApiTokens(db, { user: 'rita' });
      expect(ritas.map((token) => token.id)).toContain(gone.id);
      expect(ritas.every((token) => token.user === 'rita')).toBe(true);
    });

    it('writes lastUsedAt at most once a minute per token', async () => {
      const created = await createApiToken(db, { user: 'alice', scopes: ['agent'] });
      const header = `Bearer ${created.token}`;
      expect(await lastUsedAt(created.id)).toBeNull();

      const t0 = new Date('2030-01-01T00:00:00.000Z');
      await authenticateBearer(db, header, { now: t0 });
      expect(await lastUsedAt(created.id)).toEqual(t0);

      // Within the minute: no write.
      const almost = new Date(t0.getTime() + LAST_USED_WRITE_INTERVAL_MS - 1);
      await authenticateBearer(db, header, { now: new Date(t0.getTime() + 1_000) });
      await authenticateBearer(db, header, { now: almost });
      expect(await lastUsedAt(created.id)).toEqual(t0);

      // A minute later: written again.
      const later = new Date(t0.getTime() + LAST_USED_WRITE_INTERVAL_MS);
      await authenticateBearer(db, header, { now: later });
      expect(await lastUsedAt(created.id)).toEqual(later);

      // Another token's use does not touch this one's.
      const other = await createApiToken(db, { user: 'alice', scopes: ['agent'] });
      await authenticateBearer(db, `Bearer ${other.token}`, { now: new Date('2031-01-01') });
      expect(await lastUsedAt(created.id)).toEqual(later);
    });

    it('audits creation and revocation; revoking twice is idempotent and audited once', async () => {
      const created = await createApiToken(db, {
        user: 'rita',
        scopes: ['reviewer'],
        name: 'audited',
        actor: rita,
      });
      const target = `token:${created.id}`;
      expect(await listAudit(db, { target })).toMatchObject([
        {
          actor: 'rita',
          actorUserId: person(rita).id,
          action: 'token.create',
          target,
          details: { name: 'audited', scopes: ['reviewer'], user: 'rita' },
        },
      ]);

      const first = await revokeApiToken(db, created.id);
      const second = await revokeApiToken(db, created.id);
      expect(second.alreadyRevoked).toBe(true);
      expect(second.revokedAt).toEqual(first.revokedAt);

      const entries = await listAudit(db, { target });
      expect(entries.map((entry) => entry.action).sort()).toEqual(['token.create', 'token.revoke']);
      expect(entries.find((entry) => entry.action === 'token.revoke')).toMatchObject({
        actor: 'cli',
        actorUserId: null,
        target,
        details: null,
      });
      // What rita did, by person: the creation (the CLI revoked it).
      const ritasActs = await listAudit(db, { actorUserId: person(rita).id });
      expect(ritasActs.filter((entry) => entry.target === target).map((e) => e.action)).toEqual([
        'token.create',
      ]);
    });

    it("hides another person's token from a non-admin's revoke (NOT_FOUND), audits nothing", async () => {
      const ritas = await createApiToken(db, { user: 'rita', scopes: ['agent'] });
      const error = await rejection(revokeApiToken(db, ritas.id, { actor: alice }));
      expect(error.code).toBe('NOT_FOUND');
      expect(await listAudit(db, { target: `token:${ritas.id}` })).toHaveLength(1);
      const own = await revokeApiToken(db, ritas.id, { actor: rita });
      expect(own.alreadyRevoked).toBe(false);
    });

    it('refuses to revoke an unknown id with NOT_FOUND and audits nothing', async () => {
      const error = await rejection(revokeApiToken(db, 'no-such-token'));
      expect(error.code).toBe('NOT_FOUND');
      expect(error.message).toBe('no API token with id "no-such-token"');
      expect(await listAudit(db, { target: 'token:no-such-token' })).toEqual([]);
    });
  });
}

// Found by the eval run with external agents: an agent's `shadowbox mcp` (another process on the
// same SQLite file) held the write lock when the attempt revoked the agent's token, and the revoke
// failed with "Operation has timed out" instead of waiting its turn.
describe('API tokens while another process holds the SQLite write lock', () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await createSqliteDatabase();
    await migrateDatabase(scratch.config);
  });
  afterAll(() => scratch.drop());

  it('makes and revokes a token once the lock is released, past the busy timeout', async () => {
    const { config } = scratch;
    if (config.provider !== 'sqlite') throw new Error('expected SQLite');
    // Each write gives up after 100 ms of waiting, and the lock is held longer than that.
    const db = createDb({ database: config }, { busyTimeoutMs: 100 });
    const holder = new Database(config.file);
    const releases: NodeJS.Timeout[] = [];
    try {
      await userIn(db, 'alice', 'author');
      const holdFor = (ms: number): void => {
        holder.exec('BEGIN IMMEDIATE');
        releases.push(setTimeout(() => holder.exec('COMMIT'), ms));
      };
      holdFor(250);
      const created = await createApiToken(db, { user: 'alice', scopes: ['agent'], name: 'ci' });
      holdFor(250);
      const revoked = await revokeApiToken(db, created.id);
      expect(revoked).toMatchObject({ id: created.id, alreadyRevoked: false });
      expect(revoked.revokedAt).not.toBeNull();
    } finally {
      releases.forEach(clearTimeout);
      if (holder.inTransaction) holder.exec('ROLLBACK');
      holder.close();
      await db.$disconnect();
    }
  });
});
