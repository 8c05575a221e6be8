import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv } from './env';
import { redact } from './redact-url';

const cwd = '/srv/shadowbox';

describe('loadEnv', () => {
  it('defaults to ./data, 127.0.0.1:3000 and the SQLite file in the data directory', () => {
    expect(loadEnv({}, cwd)).toEqual({
      dataDir: '/srv/shadowbox/data',
      host: '127.0.0.1',
      port: 3000,
      database: { provider: 'sqlite', file: '/srv/shadowbox/data/shadowbox.db' },
      hypothesisGatherMs: 3000,
      publicUrl: null,
      maxPendingHypotheses: 64,
      trustedProxies: [],
      runLimits: { maxMemoryMb: 4096, maxPids: 1024, maxDiskMb: 4096, maxInodes: 200_000 },
      hardMaxRunLimits: { maxMemoryMb: 4096, maxPids: 1024, maxDiskMb: 4096, maxInodes: 200_000 },
      sandboxReadOnlyPaths: [],
      sandboxMode: 'auto',
      egressAllow: undefined,
      setupTimeoutMs: 900_000,
      authSecret: undefined,
      requireSecondReviewer: false,
      maxReviewRounds: 5,
      role: 'all',
      workerCapacity: 2,
      workerHeartbeatMs: 5000,
      workerExpiryMs: 15_000,
      llm: null,
    });
  });

  it('reads the LLM endpoint with the rest, refusing a bad value by its name', () => {
    const llm = {
      SHADOWBOX_LLM_BASE_URL: 'http://127.0.0.1:8080/v1/',
      SHADOWBOX_LLM_MODEL: 'coder',
    };
    expect(loadEnv(llm, cwd).llm).toMatchObject({
      baseUrl: 'http://127.0.0.1:8080/v1',
      model: 'coder',
      apiKey: null,
    });
    expect(() => loadEnv({ ...llm, SHADOWBOX_LLM_TIMEOUT_SECS: 'soon' }, cwd)).toThrow(
      /SHADOWBOX_LLM_TIMEOUT_SECS="soon" must be a number of seconds/,
    );
  });

  it('allows the web and worker roles only on PostgreSQL; expiry defaults to three beats', () => {
    const postgres = { DATABASE_URL: 'postgresql://u@db.example:5432/shadowbox' };
    expect(loadEnv({ ...postgres, SHADOWBOX_ROLE: 'worker' }, cwd).role).toBe('worker');
    const timed = loadEnv({ ...postgres, SHADOWBOX_WORKER_HEARTBEAT_SECS: '0.5' }, cwd);
    expect([timed.workerHeartbeatMs, timed.workerExpiryMs]).toEqual([500, 1500]);
    expect(
      loadEnv(
        { ...postgres, SHADOWBOX_WORKER_EXPIRY_SECS: '2', SHADOWBOX_WORKER_CAPACITY: '4' },
        cwd,
      ),
    ).toMatchObject({ workerExpiryMs: 2000, workerCapacity: 4 });
    expect(() => loadEnv({ SHADOWBOX_ROLE: 'web' }, cwd)).toThrow(
      /SHADOWBOX_ROLE=web needs a PostgreSQL DATABASE_URL/,
    );
    expect(() => loadEnv({ ...postgres, SHADOWBOX_ROLE: 'cron' }, cwd)).toThrow(
      /SHADOWBOX_ROLE="cron" must be web, worker or all/,
    );
  });

  it('reads the public URL, the inbox cap, run caps and extra sandbox paths, naming bad values', () => {
    const env = loadEnv(
      {
        SHADOWBOX_PUBLIC_URL: 'https://shadowbox.example.com',
        SHADOWBOX_MAX_PENDING_HYPOTHESES: '8',
        SHADOWBOX_MAX_MEMORY_MB: '512',
        SHADOWBOX_MAX_PIDS: '64',
        SHADOWBOX_MAX_DISK_MB: '100',
        SHADOWBOX_MAX_INODES: '5000',
        SHADOWBOX_SANDBOX_RO_PATHS: '/opt/toolchain:/srv/sdk',
      },
      cwd,
    );
    expect(env.publicUrl?.host).toBe('shadowbox.example.com');
    expect(env.maxPendingHypotheses).toBe(8);
    expect(env.runLimits).toEqual({
      maxMemoryMb: 512,
      maxPids: 64,
      maxDiskMb: 100,
      maxInodes: 5000,
    });
    expect(env.sandboxReadOnlyPaths).toEqual(['/opt/toolchain', '/srv/sdk']);
    expect(() => loadEnv({ SHADOWBOX_PUBLIC_URL: 'https://x.example/app' }, cwd)).toThrow(
      'must be an origin only',
    );
    expect(() => loadEnv({ SHADOWBOX_MAX_PIDS: '2' }, cwd)).toThrow(
      'SHADOWBOX_MAX_PIDS="2" must be a whole number from 8 to 4194304',
    );
    expect(() => loadEnv({ SHADOWBOX_SANDBOX_RO_PATHS: 'relative/dir' }, cwd)).toThrow(
      'must be a colon-separated list of absolute paths',
    );
  });

  it('reads the hard maxima an admin may raise caps to, never below their ceilings', () => {
    const env = loadEnv(
      { SHADOWBOX_HARD_MAX_MEMORY_MB: '16384', SHADOWBOX_HARD_MAX_INODES: '1000000' },
      cwd,
    );
    expect(env.hardMaxRunLimits).toEqual({
      maxMemoryMb: 16_384,
      maxPids: 1024,
      maxDiskMb: 4096,
      maxInodes: 1_000_000,
    });
    expect(() =>
      loadEnv({ SHADOWBOX_MAX_PIDS: '512', SHADOWBOX_HARD_MAX_PIDS: '256' }, cwd),
    ).toThrow('SHADOWBOX_HARD_MAX_PIDS="256" is below the ceiling it raises (512)');
  });

  it('reads the gather window in seconds and refuses anything but a number', () => {
    expect(loadEnv({ SHADOWBOX_HYPOTHESIS_GATHER_SECS: '0.5' }, cwd).hypothesisGatherMs).toBe(500);
    expect(() => loadEnv({ SHADOWBOX_HYPOTHESIS_GATHER_SECS: 'soon' }, cwd)).toThrow(
      'SHADOWBOX_HYPOTHESIS_GATHER_SECS="soon" must be a number of seconds from 0 to 9999',
    );
  });

  it('reads SHADOWBOX_TRUSTED_PROXIES (addresses and ranges) and names a bad entry', () => {
    const { trustedProxies } = loadEnv({ SHADOWBOX_TRUSTED_PROXIES: '10.0.0.0/8, ::1' }, cwd);
    expect(trustedProxies.map(([range, bits]) => `${range.toString()}/${bits}`)).toEqual([
      '10.0.0.0/8',
      '::1/128',
    ]);
    expect(() => loadEnv({ SHADOWBOX_TRUSTED_PROXIES: '10.0.0.0/8,proxy' }, cwd)).toThrow(
      'SHADOWBOX_TRUSTED_PROXIES: "proxy" is not an IP address or CIDR range',
    );
  });

  it('treats empty values as unset', () => {
    expect(loadEnv({ PORT: '', HOST: ' ', DATABASE_URL: '', SHADOWBOX_DATA_DIR: '' }, cwd)).toEqual(
      loadEnv({}, cwd),
    );
  });

  it('resolves the data directory and puts the default database in it', () => {
    const env = loadEnv({ SHADOWBOX_DATA_DIR: 'var/sb' }, cwd);
    expect(env.dataDir).toBe('/srv/shadowbox/var/sb');
    expect(env.database).toEqual({
      provider: 'sqlite',
      file: '/srv/shadowbox/var/sb/shadowbox.db',
    });
    expect(loadEnv({ SHADOWBOX_DATA_DIR: '/abs' }, cwd).dataDir).toBe('/abs');
  });

  it('reads HOST and PORT', () => {
    expect(loadEnv({ HOST: '0.0.0.0', PORT: '8080' }, cwd)).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
    });
    expect(loadEnv({ HOST: '::1', PORT: '0' }, cwd)).toMatchObject({ host: '::1', port: 0 });
  });

  it.each([
    ['file:./db/x.db', path.join(cwd, 'db/x.db')],
    ['file:/var/lib/x.db', '/var/lib/x.db'],
    ['file:///var/lib/x.db', '/var/lib/x.db'],
  ])('reads DATABASE_URL=%s as a SQLite file', (url, file) => {
    expect(loadEnv({ DATABASE_URL: url }, cwd).database).toEqual({ provider: 'sqlite', file });
  });

  it.each([
    'postgres://u:p@db:5432/sb',
    'postgresql://postgres@127.0.0.1/shadowbox?sslmode=disable',
  ])('reads DATABASE_URL=%s as PostgreSQL', (url) => {
    expect(loadEnv({ DATABASE_URL: url }, cwd).database).toEqual({ provider: 'postgresql', url });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT="abc" must be a whole number from 0 to 65535'],
    [{ PORT: '70000' }, 'PORT="70000" must be a whole number from 0 to 65535'],
    [{ PORT: '-1' }, 'PORT="-1"'],
    [{ HOST: 'bad host' }, 'HOST="bad host" must be a host name or an IP address'],
    [{ DATABASE_URL: 'mysql://x/y' }, 'DATABASE_URL="mysql://x/y" is not supported'],
    [{ DATABASE_URL: 'file:' }, 'DATABASE_URL="file:" must name a database file'],
    [{ DATABASE_URL: 'file::memory:' }, 'must name a database file'],
    [{ DATABASE_URL: 'postgresql://localhost' }, 'must name a host and a database'],
  ])('rejects %o with a message naming the variable and the value', (source, message) => {
    expect(() => loadEnv(source, cwd)).toThrow(message);
    try {
      loadEnv(source, cwd);
    } catch (error) {
      expect(error).toMatchObject({ name: 'AppError', code: 'INVALID_ARGUMENT' });
      expect((error as Error).message).toMatch(/^Invalid environment: /);
    }
  });

  it('reports every bad variable at once', () => {
    expect(() => loadEnv({ PORT: 'x', HOST: 'a b' }, cwd)).toThrow(/HOST=.*; PORT=|PORT=.*; HOST=/);
  });

  it('never prints a database password', () => {
    expect(() => loadEnv({ DATABASE_URL: 'postgresql://u:s3cret@h' }, cwd)).toThrow(
      'DATABASE_URL="postgresql://u:***@h" must name a host and a database',
    );
    expect(redact('postgres://user:pa:ss@host/db')).toBe('postgres://user:***@host/db');
    expect(redact('postgres://user@host/db')).toBe('postgres://user@host/db');
  });

  it('reads process.env by default and has no side effects', () => {
    expect(loadEnv().host).toBeTypeOf('string');
  });
});
