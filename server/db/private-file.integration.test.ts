import { chmod, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAuthSecret } from '../auth';
import { createDb } from './client';
import { migrateDatabase } from './migrate';

/**
 * The database file held every person's password hash and sessions at 0644: any local user
 * could read it. It, its WAL sidecars and the kept auth secret are the server's alone (0600),
 * new or found wider at start-up.
 */
const modeOf = async (file: string): Promise<string> =>
  ((await stat(file)).mode & 0o777).toString(8).padStart(4, '0');

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the data directory’s secret files are 0600', () => {
  it('creates the database and its WAL files 0600, whatever the umask', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-modes-'));
    const file = path.join(dir, 'shadowbox.db');
    const database = { provider: 'sqlite' as const, file };
    const umask = process.umask(0o022);
    try {
      await migrateDatabase(database);
      const db = createDb({ database });
      await db.task.count();
      expect((await readdir(dir)).sort()).toEqual([
        'shadowbox.db',
        'shadowbox.db-shm',
        'shadowbox.db-wal',
      ]);
      for (const name of await readdir(dir))
        expect([name, await modeOf(path.join(dir, name))]).toEqual([name, '0600']);
      await db.$disconnect();
    } finally {
      process.umask(umask);
    }
  });

  it('narrows a database file and sidecars found at 0644 when it opens them', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-modes-'));
    const file = path.join(dir, 'shadowbox.db');
    const database = { provider: 'sqlite' as const, file };
    await migrateDatabase(database);
    for (const name of await readdir(dir)) await chmod(path.join(dir, name), 0o644);
    const db = createDb({ database });
    await db.task.count();
    for (const name of await readdir(dir))
      expect([name, await modeOf(path.join(dir, name))]).toEqual([name, '0600']);
    await db.$disconnect();
  });

  it('keeps a new auth secret 0600 and narrows one found at 0644', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-modes-'));
    const secret = await loadAuthSecret(dir, undefined);
    expect(await modeOf(path.join(dir, 'auth-secret'))).toBe('0600');
    await chmod(path.join(dir, 'auth-secret'), 0o644);
    expect(await loadAuthSecret(dir, undefined)).toBe(secret);
    expect(await modeOf(path.join(dir, 'auth-secret'))).toBe('0600');
  });

  it('narrows an older secret written by hand', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-modes-'));
    await writeFile(path.join(dir, 'auth-secret'), `${'k'.repeat(40)}\n`, { mode: 0o644 });
    expect(await loadAuthSecret(dir, undefined)).toBe('k'.repeat(40));
    expect(await modeOf(path.join(dir, 'auth-secret'))).toBe('0600');
  });
});
