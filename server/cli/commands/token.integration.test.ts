import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '../../audit/audit-log';
import { authenticateBearer } from '../../auth/api-tokens';
import { createDb, type Db } from '../../db/client';
import { backends, type ScratchDatabase } from '../../test-support/scratch-databases';
import type { DatabaseConfig } from '../../env';
import { main } from '../main';
import { memoryIo, type MemoryIo } from '../test-support/memory-io';
import { testPassword } from '../../test-support/test-password';

const bin = new URL('../../../bin/shadowbox.mjs', import.meta.url).pathname;

/** The environment that makes the CLI open `database`. */
function envFor(database: DatabaseConfig): Record<string, string> {
  return database.provider === 'sqlite'
    ? { SHADOWBOX_DATA_DIR: path.dirname(database.file) }
    : { DATABASE_URL: database.url };
}

async function cli(env: MemoryIo['env'], ...args: string[]) {
  const io: MemoryIo = { ...memoryIo(), env };
  const code = await main(['token', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

/** `shadowbox user add NAME --role ROLE`, the password piped on stdin. */
async function addUser(env: MemoryIo['env'], name: string, role: string) {
  const io: MemoryIo = { ...memoryIo({ stdin: `${testPassword}\n` }), env };
  const code = await main(['user', 'add', name, '--role', role], io);
  return { code, out: io.out(), err: io.err() };
}

async function withDb<T>(database: DatabaseConfig, use: (db: Db) => Promise<T>): Promise<T> {
  const db = createDb({ database });
  try {
    return await use(db);
  } finally {
    await db.$disconnect();
  }
}

const tokenLine = /^sbx_[A-Za-z0-9_-]{43}\n$/;

for (const backend of backends) {
  describe.skipIf(backend.skip)(`shadowbox token on ${backend.name}`, () => {
    let scratch: ScratchDatabase;
    let env: Record<string, string>;
    beforeAll(async () => {
      // Not migrated here: the command migrates a fresh database itself.
      scratch = await backend.create();
      env = envFor(scratch.config);
    });
    afterAll(async () => {
      await scratch.drop();
    });

    it('refuses a token for nobody: --user must name a person', async () => {
      // The first command on the fresh database: it migrates it, then finds no such person.
      const refused = await cli(env, 'create', '--user', 'rita', '--scopes', 'agent');
      expect(refused).toEqual({
        code: 2,
        out: '',
        err: 'shadowbox token: no user named rita [NOT_FOUND]\n',
      });
      expect(await addUser(env, 'rita', 'reviewer')).toMatchObject({ code: 0 });
    });

    it('create prints only the token on stdout; it authenticates until revoked', async () => {
      const created = await cli(
        env,
        'create',
        '--user',
        'rita',
        '--scopes',
        'agent',
        '--name',
        'ci',
      );
      expect(created.code).toBe(0);
      expect(created.out).toMatch(tokenLine);
      const token = created.out.trim();
      const id = /^created token (\S+) for rita \(name: ci, scopes: agent\);/.exec(
        created.err,
      )?.[1];
      expect(id).toBeDefined();
      expect(created.err).not.toContain(token);

      const actor = await withDb(scratch.config, (db) => authenticateBearer(db, `Bearer ${token}`));
      // The token acts as its person.
      expect(actor).toEqual({
        kind: 'token',
        tokenId: id,
        scopes: ['agent'],
        person: { id: expect.any(String) as string, username: 'rita', role: 'reviewer', teams: [] },
      });

      const listed = await cli(env, 'list');
      expect(listed.code).toBe(0);
      expect(listed.out).toMatch(/^ID +USER +NAME +SCOPES +CREATED +LAST USED +STATUS\n/);
      expect(listed.out).toMatch(
        new RegExp(`\\n${id ?? '?'} +rita +ci +agent +\\S+ +\\S+ +active\\n`),
      );
      expect(listed.out).not.toContain(token.slice(4));

      const revoked = await cli(env, 'revoke', id ?? '');
      expect(revoked).toEqual({ code: 0, out: `revoked token ${id ?? '?'} (ci)\n`, err: '' });
      const again = await cli(env, 'revoke', id ?? '');
      expect(again.code).toBe(0);
      expect(again.out).toMatch(/was already revoked at \d{4}-/);

      await withDb(scratch.config, async (db) => {
        await expect(authenticateBearer(db, `Bearer ${token}`)).rejects.toThrow(
          'invalid or revoked API token',
        );
        // Audited as the CLI, once per change.
        const audit = await listAudit(db, { target: `token:${id ?? '?'}` });
        expect(audit.map((entry) => `${entry.actor} ${entry.action}`).sort()).toEqual([
          'cli token.create',
          'cli token.revoke',
        ]);
      });
      expect((await cli(env, 'list')).out).toMatch(/ revoked \d{4}-\S+\n/);
    });

    it('--json create, list and revoke print machine-readable objects', async () => {
      const created = await cli(
        env,
        'create',
        '--user',
        'rita',
        '--scopes',
        'reviewer,agent',
        '--scopes',
        'reviewer',
        '--json',
      );
      expect(created.code).toBe(0);
      expect(created.err).toBe('');
      const value = JSON.parse(created.out) as Record<string, unknown>;
      expect(value).toEqual({
        id: expect.any(String) as string,
        user: 'rita',
        token: expect.stringMatching(/^sbx_/) as string,
        scopes: ['agent', 'reviewer'],
        name: 'unnamed',
      });
      const actor = await withDb(scratch.config, (db) =>
        authenticateBearer(db, `Bearer ${String(value.token)}`),
      );
      expect(actor).toMatchObject({ tokenId: value.id, scopes: ['agent', 'reviewer'] });

      const listed = await cli(env, 'list', '--json');
      const tokens = JSON.parse(listed.out) as Record<string, unknown>[];
      const mine = tokens.find((token) => token.id === value.id);
      expect(mine).toEqual({
        id: value.id,
        user: 'rita',
        name: 'unnamed',
        scopes: ['agent', 'reviewer'],
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
        lastUsedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
        revokedAt: null,
      });
      expect(listed.out).not.toContain(String(value.token).slice(4));

      const revoked = await cli(env, 'revoke', String(value.id), '--json');
      expect(JSON.parse(revoked.out)).toMatchObject({
        id: value.id,
        revokedAt: expect.stringMatching(/^\d{4}-/) as string,
        alreadyRevoked: false,
      });
    });

    it('refuses an unknown id with exit 2', async () => {
      const plain = await cli(env, 'revoke', 'nope');
      expect(plain).toEqual({
        code: 2,
        out: '',
        err: 'shadowbox token: no API token with id "nope" [NOT_FOUND]\n',
      });
      const json = await cli(env, 'revoke', 'nope', '--json');
      expect(json.code).toBe(2);
      expect(JSON.parse(json.out)).toEqual({
        error: { code: 'NOT_FOUND', message: 'no API token with id "nope"' },
      });
    });
  });
}

describe('shadowbox token through the real binary', () => {
  let dataDir: string;
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'sb-cli-token-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const run = (args: readonly string[], input?: string) =>
    execa('node', [bin, ...args], {
      cwd: root,
      // A fresh data directory; any DATABASE_URL of the caller's environment is dropped.
      env: { SHADOWBOX_DATA_DIR: dataDir, DATABASE_URL: undefined },
      reject: false,
      ...(input === undefined ? {} : { input }),
    });
  const shadowbox = (...args: string[]) => run(['token', ...args]);

  it('creates a token on a fresh machine; the printed token authenticates', async () => {
    dataDir = path.join(root, 'fresh', 'data');
    const added = await run(['user', 'add', 'rita', '--role', 'reviewer'], `${testPassword}\n`);
    expect(added.exitCode).toBe(0);
    const created = await shadowbox(
      'create',
      '--user',
      'rita',
      '--scopes',
      'agent,reviewer',
      '--name',
      'bin',
    );
    expect(created.exitCode).toBe(0);
    expect(`${created.stdout}\n`).toMatch(tokenLine);
    expect(created.stderr).toMatch(
      /^created token \S+ for rita \(name: bin, scopes: agent,reviewer\);/,
    );

    const database: DatabaseConfig = {
      provider: 'sqlite',
      file: path.join(dataDir, 'shadowbox.db'),
    };
    const actor = await withDb(database, (db) =>
      authenticateBearer(db, `Bearer ${created.stdout}`),
    );
    expect(actor).toMatchObject({
      kind: 'token',
      scopes: ['agent', 'reviewer'],
      person: { username: 'rita', role: 'reviewer' },
    });
  });

  it('refuses a bad scope with exit 2 and writes nothing', async () => {
    dataDir = path.join(root, 'refused', 'data');
    const refused = await shadowbox('create', '--user', 'rita', '--scopes', 'agent,admin');
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      'shadowbox token: unknown scope "admin"; valid scopes: agent, reviewer [INVALID_ARGUMENT]',
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it('reports an unreachable database with exit 1 and a message, not a stack trace', async () => {
    dataDir = path.join(root, 'unused');
    const failed = await execa('node', [bin, 'token', 'list'], {
      cwd: root,
      env: { DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/never' },
      reject: false,
    });
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toMatch(/^shadowbox token: .*127\.0\.0\.1:1.* \[INTERNAL\]$/);
  });
});
