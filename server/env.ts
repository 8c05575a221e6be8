import path from 'node:path';
import { z } from 'zod';
import { defaultRunLimits, type RunLimits } from './engine/sandbox';
import { parseTrustedProxies, type TrustedProxies } from './auth/client-address';
import { AppError } from './errors/app-error';
import { loadLlmConfig, type LlmConfig } from './llm/llm-config';
import { redact } from './redact-url';

/**
 * The process configuration, parsed once at start-up (`loadEnv()`), so a bad value fails before
 * anything listens or writes. Relative paths are resolved against the working directory here, once.
 */
export interface Env {
  /** Absolute path of the data directory (database file, repositories, worktrees). */
  dataDir: string;
  host: string;
  port: number;
  database: DatabaseConfig;
  /** After an iteration's first hypothesis arrives, how long to wait for more to run with it. */
  hypothesisGatherMs: number;
  /**
   * The origin the browser reaches this server at when it is not 127.0.0.1/localhost/[::1]:PORT
   * (behind a reverse proxy, say): its host is accepted by the browser endpoints' Host check.
   */
  publicUrl: URL | null;
  /**
   * SHADOWBOX_TRUSTED_PROXIES: the peers whose X-Forwarded-For is believed (IPs and CIDR ranges);
   * from anyone else the client is the socket's address (server/auth/client-address.ts).
   */
  trustedProxies: TrustedProxies;
  /** Hypotheses a task may hold waiting to run; one more is refused with INBOX_FULL. */
  maxPendingHypotheses: number;
  /**
   * The server's resource caps for every sandboxed run, and the most a task may ask: a task may
   * lower them; only an admin may raise them, up to `hardMaxRunLimits`.
   */
  runLimits: RunLimits;
  /** The most an admin may give a task (SHADOWBOX_HARD_MAX_*; default: `runLimits`). */
  hardMaxRunLimits: RunLimits;
  /** Host paths bound read-only into every sandbox beyond the built-in list (toolchains). */
  sandboxReadOnlyPaths: string[];
  /**
   * SHADOWBOX_MODE: `auto` (default) runs in overlay shadows or refuses to run task code;
   * `inplace` is the operator's explicit choice of no isolation; `overlay` fails to start without.
   */
  sandboxMode: 'auto' | 'overlay' | 'inplace';
  /** SHADOWBOX_EGRESS_ALLOW as given: adds to (`+host`) or replaces the setup allowlist. */
  egressAllow: string | undefined;
  /** SHADOWBOX_GIT_ALLOW as given: the team's own forges a Git URL may name (see parseGitAllow). */
  gitAllow: string | undefined;
  /** How long a task's whole setup may take. */
  setupTimeoutMs: number;
  /** What this process does: serve the app (`web`), run tasks (`worker`), or both (`all`). */
  role: ProcessRole;
  /** Signs session cookies (SHADOWBOX_AUTH_SECRET; else kept in the data directory). */
  authSecret: string | undefined;
  /** Seals remotes' credentials (SHADOWBOX_SECRETS_KEY; else kept in the data directory). */
  secretsKey: string | undefined;
  /** SHADOWBOX_REQUIRE_SECOND_REVIEWER=1: nobody approves a diff whose winner they submitted. */
  requireSecondReviewer: boolean;
  /** SHADOWBOX_MAX_REVIEW_ROUNDS: how many times reviewers may request changes on one task. */
  maxReviewRounds: number;
  /** Task steps a worker runs at once. */
  workerCapacity: number;
  /** How often a worker records its heartbeat (PostgreSQL). */
  workerHeartbeatMs: number;
  /** A worker whose heartbeat is older than this is dead and its tasks move (PostgreSQL). */
  workerExpiryMs: number;
  /** The LLM endpoint (`SHADOWBOX_LLM_*`, see server/llm/llm-config.ts); null for none. */
  llm: LlmConfig | null;
}

export const processRoles = ['web', 'worker', 'all'] as const;
export type ProcessRole = (typeof processRoles)[number];

export type DatabaseConfig =
  | { provider: 'sqlite'; /** absolute path of the database file */ file: string }
  | { provider: 'postgresql'; url: string };

export type EnvSource = Readonly<Record<string, string | undefined>>;

// `VAR=` in a shell or a .env file means "not set", not "set to the empty string".
const optional = z
  .string()
  .transform((value) => value.trim())
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const schema = z.object({
  SHADOWBOX_DATA_DIR: optional,
  HOST: optional.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9.:[\]%-]+$/, 'must be a host name or an IP address')
      .optional(),
  ),
  PORT: optional.pipe(
    z
      .string()
      .regex(/^\d{1,5}$/, 'must be a whole number from 0 to 65535')
      .transform(Number)
      .refine((port) => port <= 65_535, 'must be a whole number from 0 to 65535')
      .optional(),
  ),
  DATABASE_URL: optional,
  SHADOWBOX_HYPOTHESIS_GATHER_SECS: optional.pipe(
    z
      .string()
      .regex(/^\d{1,4}(\.\d+)?$/, 'must be a number of seconds from 0 to 9999')
      .transform(Number)
      .optional(),
  ),
  SHADOWBOX_PUBLIC_URL: optional.pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
      .transform((value) => new URL(value))
      .refine((url) => url.pathname === '/' && url.search === '' && url.hash === '', {
        error: 'must be an origin only (scheme, host and port), e.g. https://shadowbox.example.com',
      })
      .optional(),
  ),
  SHADOWBOX_TRUSTED_PROXIES: optional,
  SHADOWBOX_MAX_PENDING_HYPOTHESES: optional.pipe(positiveInteger(1, 10_000).optional()),
  SHADOWBOX_MAX_MEMORY_MB: optional.pipe(positiveInteger(16, 1_048_576).optional()),
  SHADOWBOX_MAX_PIDS: optional.pipe(positiveInteger(8, 4_194_304).optional()),
  SHADOWBOX_MAX_DISK_MB: optional.pipe(positiveInteger(1, 16_777_216).optional()),
  SHADOWBOX_MAX_INODES: optional.pipe(positiveInteger(100, 1_000_000_000).optional()),
  SHADOWBOX_HARD_MAX_MEMORY_MB: optional.pipe(positiveInteger(16, 1_048_576).optional()),
  SHADOWBOX_HARD_MAX_PIDS: optional.pipe(positiveInteger(8, 4_194_304).optional()),
  SHADOWBOX_HARD_MAX_DISK_MB: optional.pipe(positiveInteger(1, 16_777_216).optional()),
  SHADOWBOX_HARD_MAX_INODES: optional.pipe(positiveInteger(100, 1_000_000_000).optional()),
  SHADOWBOX_EGRESS_ALLOW: optional,
  SHADOWBOX_GIT_ALLOW: optional,
  SHADOWBOX_SETUP_TIMEOUT_SECS: optional.pipe(positiveInteger(1, 86_400).optional()),
  SHADOWBOX_SECRETS_KEY: optional,
  SHADOWBOX_AUTH_SECRET: optional.pipe(
    z
      .string()
      .min(32, 'must be at least 32 characters (e.g. `openssl rand -base64 32`)')
      .optional(),
  ),
  SHADOWBOX_REQUIRE_SECOND_REVIEWER: optional.pipe(
    z.enum(['0', '1'], { error: 'must be 1 (on) or 0 (off)' }).optional(),
  ),
  SHADOWBOX_MAX_REVIEW_ROUNDS: optional.pipe(positiveInteger(1, 100).optional()),
  SHADOWBOX_ROLE: optional.pipe(
    z.enum(processRoles, { error: 'must be web, worker or all' }).optional(),
  ),
  SHADOWBOX_WORKER_CAPACITY: optional.pipe(positiveInteger(1, 1024).optional()),
  SHADOWBOX_WORKER_HEARTBEAT_SECS: optional.pipe(seconds(0.1, 3600).optional()),
  SHADOWBOX_WORKER_EXPIRY_SECS: optional.pipe(seconds(0.3, 86_400).optional()),
  SHADOWBOX_MODE: optional.pipe(z.enum(['auto', 'overlay', 'inplace']).optional()),
  SHADOWBOX_SANDBOX_RO_PATHS: optional.pipe(
    z
      .string()
      .transform((value) => value.split(':').filter((p) => p !== ''))
      .refine((paths) => paths.every((p) => path.isAbsolute(p) && !p.includes('\0')), {
        error: 'must be a colon-separated list of absolute paths',
      })
      .optional(),
  ),
});

/**
 * The caps (ceilings a task may only lower) and the hard maximum an admin may raise a task's caps
 * to; a hard maximum below its ceiling is a mistake in the configuration, refused at start.
 */
function runLimitsOf(
  values: z.output<typeof schema>,
  source: EnvSource,
): { runLimits: RunLimits; hardMaxRunLimits: RunLimits } {
  const runLimits: RunLimits = {
    maxMemoryMb: values.SHADOWBOX_MAX_MEMORY_MB ?? defaultRunLimits.maxMemoryMb,
    maxPids: values.SHADOWBOX_MAX_PIDS ?? defaultRunLimits.maxPids,
    maxDiskMb: values.SHADOWBOX_MAX_DISK_MB ?? defaultRunLimits.maxDiskMb,
    maxInodes: values.SHADOWBOX_MAX_INODES ?? defaultRunLimits.maxInodes,
  };
  const hard = {
    maxMemoryMb: ['SHADOWBOX_HARD_MAX_MEMORY_MB', values.SHADOWBOX_HARD_MAX_MEMORY_MB],
    maxPids: ['SHADOWBOX_HARD_MAX_PIDS', values.SHADOWBOX_HARD_MAX_PIDS],
    maxDiskMb: ['SHADOWBOX_HARD_MAX_DISK_MB', values.SHADOWBOX_HARD_MAX_DISK_MB],
    maxInodes: ['SHADOWBOX_HARD_MAX_INODES', values.SHADOWBOX_HARD_MAX_INODES],
  } as const;
  const hardMaxRunLimits = { ...runLimits };
  for (const name of Object.keys(hard) as (keyof RunLimits)[]) {
    const [variable, value] = hard[name];
    if (value === undefined) continue;
    if (value < runLimits[name]) {
      throw envError(
        `${variable}=${JSON.stringify(source[variable] ?? '')} is below the ceiling it raises (${runLimits[name]})`,
        [variable],
      );
    }
    hardMaxRunLimits[name] = value;
  }
  return { runLimits, hardMaxRunLimits };
}

function seconds(min: number, max: number) {
  return z
    .string()
    .regex(/^\d{1,5}(\.\d+)?$/, `must be a number of seconds from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be a number of seconds from ${min} to ${max}`);
}

function positiveInteger(min: number, max: number) {
  return z
    .string()
    .regex(/^\d{1,9}$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be a whole number from ${min} to ${max}`);
}

export function loadEnv(source: EnvSource = process.env, cwd: string = process.cwd()): Env {
  const parsed = schema.safeParse({
    SHADOWBOX_DATA_DIR: source.SHADOWBOX_DATA_DIR,
    HOST: source.HOST,
    PORT: source.PORT,
    DATABASE_URL: source.DATABASE_URL,
    SHADOWBOX_HYPOTHESIS_GATHER_SECS: source.SHADOWBOX_HYPOTHESIS_GATHER_SECS,
    SHADOWBOX_PUBLIC_URL: source.SHADOWBOX_PUBLIC_URL,
    SHADOWBOX_TRUSTED_PROXIES: source.SHADOWBOX_TRUSTED_PROXIES,
    SHADOWBOX_MAX_PENDING_HYPOTHESES: source.SHADOWBOX_MAX_PENDING_HYPOTHESES,
    SHADOWBOX_MAX_MEMORY_MB: source.SHADOWBOX_MAX_MEMORY_MB,
    SHADOWBOX_MAX_PIDS: source.SHADOWBOX_MAX_PIDS,
    SHADOWBOX_MAX_DISK_MB: source.SHADOWBOX_MAX_DISK_MB,
    SHADOWBOX_MAX_INODES: source.SHADOWBOX_MAX_INODES,
    SHADOWBOX_HARD_MAX_MEMORY_MB: source.SHADOWBOX_HARD_MAX_MEMORY_MB,
    SHADOWBOX_HARD_MAX_PIDS: source.SHADOWBOX_HARD_MAX_PIDS,
    SHADOWBOX_HARD_MAX_DISK_MB: source.SHADOWBOX_HARD_MAX_DISK_MB,
    SHADOWBOX_HARD_MAX_INODES: source.SHADOWBOX_HARD_MAX_INODES,
    SHADOWBOX_MODE: source.SHADOWBOX_MODE,
    SHADOWBOX_SANDBOX_RO_PATHS: source.SHADOWBOX_SANDBOX_RO_PATHS,
    SHADOWBOX_EGRESS_ALLOW: source.SHADOWBOX_EGRESS_ALLOW,
    SHADOWBOX_GIT_ALLOW: source.SHADOWBOX_GIT_ALLOW,
    SHADOWBOX_SETUP_TIMEOUT_SECS: source.SHADOWBOX_SETUP_TIMEOUT_SECS,
    SHADOWBOX_AUTH_SECRET: source.SHADOWBOX_AUTH_SECRET,
    SHADOWBOX_SECRETS_KEY: source.SHADOWBOX_SECRETS_KEY,
    SHADOWBOX_REQUIRE_SECOND_REVIEWER: source.SHADOWBOX_REQUIRE_SECOND_REVIEWER,
    SHADOWBOX_MAX_REVIEW_ROUNDS: source.SHADOWBOX_MAX_REVIEW_ROUNDS,
    SHADOWBOX_ROLE: source.SHADOWBOX_ROLE,
    SHADOWBOX_WORKER_CAPACITY: source.SHADOWBOX_WORKER_CAPACITY,
    SHADOWBOX_WORKER_HEARTBEAT_SECS: source.SHADOWBOX_WORKER_HEARTBEAT_SECS,
    SHADOWBOX_WORKER_EXPIRY_SECS: source.SHADOWBOX_WORKER_EXPIRY_SECS,
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const variable = String(issue.path[0]);
      return `${variable}=${JSON.stringify(source[variable] ?? '')} ${issue.message}`;
    });
    throw envError(
      problems.join('; '),
      parsed.error.issues.map((issue) => String(issue.path[0])),
    );
  }
  const values = parsed.data;
  const dataDir = path.resolve(cwd, values.SHADOWBOX_DATA_DIR ?? './data');
  const database = parseDatabaseUrl(values.DATABASE_URL, dataDir, cwd);
  const role = values.SHADOWBOX_ROLE ?? 'all';
  checkRole(role, database);
  const { runLimits, hardMaxRunLimits } = runLimitsOf(values, source);
  const workerHeartbeatMs = Math.round((values.SHADOWBOX_WORKER_HEARTBEAT_SECS ?? 5) * 1000);
  return {
    dataDir,
    host: values.HOST ?? '127.0.0.1',
    port: values.PORT ?? 3000,
    database,
    hypothesisGatherMs: Math.round((values.SHADOWBOX_HYPOTHESIS_GATHER_SECS ?? 3) * 1000),
    publicUrl: values.SHADOWBOX_PUBLIC_URL ?? null,
    trustedProxies: parseTrustedProxies(values.SHADOWBOX_TRUSTED_PROXIES),
    maxPendingHypotheses: values.SHADOWBOX_MAX_PENDING_HYPOTHESES ?? 64,
    runLimits,
    hardMaxRunLimits,
    sandboxReadOnlyPaths: values.SHADOWBOX_SANDBOX_RO_PATHS ?? [],
    sandboxMode: values.SHADOWBOX_MODE ?? 'auto',
    egressAllow: values.SHADOWBOX_EGRESS_ALLOW,
    gitAllow: values.SHADOWBOX_GIT_ALLOW,
    setupTimeoutMs: (values.SHADOWBOX_SETUP_TIMEOUT_SECS ?? 15 * 60) * 1000,
    authSecret: values.SHADOWBOX_AUTH_SECRET,
    secretsKey: values.SHADOWBOX_SECRETS_KEY,
    requireSecondReviewer: values.SHADOWBOX_REQUIRE_SECOND_REVIEWER === '1',
    maxReviewRounds: values.SHADOWBOX_MAX_REVIEW_ROUNDS ?? 5,
    role,
    workerCapacity: values.SHADOWBOX_WORKER_CAPACITY ?? 2,
    workerHeartbeatMs,
    // Three missed beats by default.
    workerExpiryMs:
      values.SHADOWBOX_WORKER_EXPIRY_SECS === undefined
        ? workerHeartbeatMs * 3
        : Math.round(values.SHADOWBOX_WORKER_EXPIRY_SECS * 1000),
    llm: loadLlmConfig(source),
  };
}

/**
 * Separate web and worker processes share work through PostgreSQL; the embedded SQLite default
 * is one process that does both.
 */
export function checkRole(role: ProcessRole, database: DatabaseConfig): void {
  if (role !== 'all' && database.provider === 'sqlite') {
    throw envError(
      `SHADOWBOX_ROLE=${role} needs a PostgreSQL DATABASE_URL: with SQLite (the default) one process serves the app and runs the tasks (role all)`,
      ['SHADOWBOX_ROLE', 'DATABASE_URL'],
    );
  }
}

/** `file:PATH` (relative to `cwd`) → SQLite; `postgres://` / `postgresql://` → PostgreSQL. */
export function parseDatabaseUrl(
  value: string | undefined,
  dataDir: string,
  cwd: string,
): DatabaseConfig {
  if (value === undefined) return { provider: 'sqlite', file: path.join(dataDir, 'shadowbox.db') };
  if (value.startsWith('file:')) {
    const file = value.slice('file:'.length).replace(/^\/\/(?=\/)/, '');
    if (file === '' || file.includes('?') || file === ':memory:') {
      throw envError(
        `DATABASE_URL=${JSON.stringify(value)} must name a database file, e.g. file:./data/shadowbox.db (no query parameters, no :memory:)`,
        ['DATABASE_URL'],
      );
    }
    return { provider: 'sqlite', file: path.resolve(cwd, file) };
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw envError(`DATABASE_URL=${JSON.stringify(redact(value))} is not a valid URL`, [
        'DATABASE_URL',
      ]);
    }
    if (url.hostname === '' || url.pathname.length <= 1) {
      throw envError(
        `DATABASE_URL=${JSON.stringify(redact(value))} must name a host and a database, e.g. postgresql://user@127.0.0.1:5432/shadowbox`,
        ['DATABASE_URL'],
      );
    }
    return { provider: 'postgresql', url: value };
  }
  throw envError(
    `DATABASE_URL=${JSON.stringify(redact(value))} is not supported: use file:PATH (SQLite) or postgresql://… (PostgreSQL)`,
    ['DATABASE_URL'],
  );
}

function envError(problems: string, variables: string[]): AppError {
  return new AppError('INVALID_ARGUMENT', `Invalid environment: ${problems}`, {
    details: { variables },
  });
}
