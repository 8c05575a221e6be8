import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../audit/audit-log';
import { createDb } from '../../db/client';
import { main } from '../main';
import { memoryIo } from '../test-support/memory-io';

/** `shadowbox user …`, `team …` and `token create --user` through the CLI's own entry point. */
describe('shadowbox user, team and token --user', () => {
  let dataDir: string;
  const cli = async (args: string[], stdin = '') => {
    const io = { ...memoryIo({ stdin }), env: { SHADOWBOX_DATA_DIR: dataDir } };
    const code = await main(args, io);
    return { code, out: io.out(), err: io.err() };
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sbx-user-cli-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('adds a person with the password piped as one line, and lists them', async () => {
    const added = await cli(
      ['user', 'add', 'Alice', '--role', 'reviewer'],
      'hunter2hunter2\nignored\n',
    );
    expect(added).toMatchObject({ code: 0, out: 'added alice (reviewer)\n' });
    const listed = await cli(['user', 'list', '--json']);
    expect(JSON.parse(listed.out)).toEqual([
      expect.objectContaining({ username: 'alice', role: 'reviewer', disabledAt: null }),
    ]);
  });

  it('refuses a taken name, a short password and an unknown role, writing nothing', async () => {
    expect(
      await cli(['user', 'add', 'alice', '--role', 'author'], 'another-password\n'),
    ).toMatchObject({
      code: 2,
      err: 'shadowbox user: a user named alice already exists [CONFLICT]\n',
    });
    expect(await cli(['user', 'add', 'bob', '--role', 'author'], 'short\n')).toMatchObject({
      code: 2,
      err: 'shadowbox user: the password must be at least 8 characters, got 5 [INVALID_ARGUMENT]\n',
    });
    expect((await cli(['user', 'add', 'bob', '--role', 'boss'], 'long-enough\n')).code).toBe(2);
    expect(JSON.parse((await cli(['user', 'list', '--json'])).out)).toHaveLength(1);
  });

  it("makes a token for a person, but none beyond the person's role", async () => {
    await cli(['user', 'add', 'bob', '--role', 'author'], 'bobs-password\n');
    const made = await cli(['token', 'create', '--user', 'bob', '--scopes', 'agent', '--json']);
    expect(made.code).toBe(0);
    expect(JSON.parse(made.out)).toMatchObject({ user: 'bob', scopes: ['agent'] });
    const beyond = await cli(['token', 'create', '--user', 'bob', '--scopes', 'agent,reviewer']);
    expect(beyond).toMatchObject({
      code: 2,
      err: "shadowbox token: bob is an author: a token cannot have the 'reviewer' scope beyond its user's rights [FORBIDDEN]\n",
    });
    const nobody = await cli(['token', 'create', '--scopes', 'agent']);
    expect(nobody.code).toBe(2);
    expect(nobody.err).toContain('--user is required');
  });

  it('puts people in teams, never above their own role', async () => {
    expect((await cli(['team', 'add', 'core'])).out).toBe('added team core\n');
    expect(await cli(['team', 'member', 'core', 'bob', '--role', 'reviewer'])).toMatchObject({
      code: 2,
      err: 'shadowbox team: bob is an author: a team role cannot be above it [FORBIDDEN]\n',
    });
    expect((await cli(['team', 'member', 'core', 'alice', '--role', 'author'])).out).toBe(
      'alice is author in core\n',
    );
  });

  it('disables a person (idempotent), audited', async () => {
    expect((await cli(['user', 'disable', 'bob'])).out).toBe(
      'disabled bob: their sessions ended and their tokens are refused\n',
    );
    expect((await cli(['user', 'disable', 'bob'])).out).toBe('bob was already disabled\n');
    const db = createDb({
      database: { provider: 'sqlite', file: path.join(dataDir, 'shadowbox.db') },
    });
    try {
      const actions = (await listAudit(db)).map((e) => `${e.actor} ${e.action} ${e.target ?? ''}`);
      expect(actions).toContain('cli user.disable user:bob');
      expect(actions).toContain('cli user.add user:alice');
    } finally {
      await db.$disconnect();
    }
  });

  it('renames a person (admins only, from here): audited with their id; the new name disables them', async () => {
    await cli(['user', 'add', 'carol', '--role', 'author'], 'carols-password\n');
    expect(await cli(['user', 'rename', 'carol', 'alice'])).toMatchObject({
      code: 2,
      err: 'shadowbox user: a user named alice already exists [CONFLICT]\n',
    });
    expect(await cli(['user', 'rename', 'nobody', 'carla'])).toMatchObject({
      code: 2,
      err: 'shadowbox user: no user named nobody [NOT_FOUND]\n',
    });
    expect((await cli(['user', 'rename', 'carol'])).code).toBe(2);
    const renamed = await cli(['user', 'rename', 'Carol', 'carla', '--json']);
    expect(renamed.code).toBe(0);
    const { id } = JSON.parse(renamed.out) as { id: string };
    expect(JSON.parse(renamed.out)).toEqual({ id, from: 'carol', username: 'carla' });
    // The old name is free again: a new person may take it (the placeholder email moved too).
    expect((await cli(['user', 'add', 'carol', '--role', 'author'], 'new-carols-pw\n')).code).toBe(
      0,
    );
    expect((await cli(['user', 'disable', 'carla'])).out).toBe(
      'disabled carla: their sessions ended and their tokens are refused\n',
    );
    const db = createDb({
      database: { provider: 'sqlite', file: path.join(dataDir, 'shadowbox.db') },
    });
    try {
      const rows = await listAudit(db, { personId: id });
      expect(rows.map((e) => [e.actor, e.action, e.target, e.subjectUserId])).toEqual([
        ['cli', 'user.disable', 'user:carla', id],
        ['cli', 'user.rename', 'user:carla', id],
        ['cli', 'user.add', 'user:carol', id],
      ]);
      expect(rows[1]?.details).toEqual({ from: 'carol', to: 'carla' });
    } finally {
      await db.$disconnect();
    }
  });
});
