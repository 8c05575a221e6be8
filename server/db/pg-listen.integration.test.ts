import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPostgresDatabase, postgresAvailable } from '../test-support/scratch-databases';
import { listenOn, type PgListener } from './pg-listen';

const skip = !postgresAvailable && process.env.SHADOWBOX_TEST_POSTGRES !== 'required';

describe.skipIf(skip)('listenOn (PostgreSQL LISTEN over one reconnecting connection)', () => {
  const channel = `sbx_listen_${randomBytes(4).toString('hex')}`;
  let url: string;
  let drop: () => Promise<void>;
  let admin: pg.Client;

  beforeAll(async () => {
    const database = await createPostgresDatabase();
    if (database.config.provider !== 'postgresql') throw new Error('expected PostgreSQL');
    url = database.config.url;
    drop = () => database.drop();
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await drop();
  });

  it('hears notices, and after its connection is killed connects again and hears the next ones', async () => {
    const heard: string[] = [];
    const errors: unknown[] = [];
    let connections = 0;
    const listener: PgListener = await listenOn({
      url,
      channel,
      applicationName: 'sbx-listen-test',
      hear: (payload) => heard.push(payload),
      onError: (error) => errors.push(error),
      connected: () => (connections += 1),
    });
    try {
      await admin.query('SELECT pg_notify($1, $2)', [channel, 'one']);
      await vi.waitFor(() => expect(heard).toEqual(['one']));
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'sbx-listen-test'",
      );
      await vi.waitFor(() => expect(connections).toBe(2), { timeout: 10_000 });
      expect(errors).not.toEqual([]);
      await admin.query('SELECT pg_notify($1, $2)', [channel, 'two']);
      await vi.waitFor(() => expect(heard).toEqual(['one', 'two']));
    } finally {
      await listener.close();
    }
    await admin.query('SELECT pg_notify($1, $2)', [channel, 'after close']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual(['one', 'two']);
  });

  it('refuses a first connection that fails, and a channel name that is not plain', async () => {
    const options = { channel, applicationName: 'x', hear: () => {}, onError: () => {} };
    await expect(
      listenOn({ ...options, url: 'postgresql://postgres@127.0.0.1:1/x' }),
    ).rejects.toThrow();
    await expect(listenOn({ ...options, url, channel: 'a; DROP TABLE x' })).rejects.toThrow(
      "'a; DROP TABLE x' is not a plain channel name",
    );
  });
});
