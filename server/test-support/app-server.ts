import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { isProcessAlive } from '../engine/process';
import type { Role, Scope } from '../tasks/task-api';
import { testPassword } from './test-password';
import { processGroupMembers, processTree, listProcesses, type ProcessInfo } from './processes';

export { api, waitForTask } from './rest-client';
export type { ApiClient, ApiResponse } from './rest-client';

/**
 * The real app as an agent meets it: `next build` once, `next start` on a free port with its own
 * data directory, tokens made with the real CLI. For integration suites (`*.integration.test.ts`).
 */

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const nextBin = path.join(repoRoot, 'node_modules', 'next', 'dist', 'bin', 'next');
const cliBin = path.join(repoRoot, 'bin', 'shadowbox.mjs');
const buildIdFile = path.join(repoRoot, '.next', 'BUILD_ID');

// Outside the repository, one per checkout: parallel suites (and parallel vitest runs) share them.
const checkoutKey = createHash('sha256').update(repoRoot).digest('hex').slice(0, 12);
export const buildLockFile = path.join(os.tmpdir(), `shadowbox-next-build-${checkoutKey}.lock`);
export const buildLogFile = path.join(os.tmpdir(), `shadowbox-next-build-${checkoutKey}.log`);

const BUILD_TIMEOUT_MS = 15 * 60_000;
const LOCK_WAIT_MS = 20 * 60_000;
const START_TIMEOUT_MS = 60_000;
const OUTPUT_LIMIT = 1024 * 1024;

/** What the app is built from; a change to any of these makes the build stale. */
const sourceRoots = ['app', 'server', 'components'];
const sourceFiles = [
  'next.config.mjs',
  'package.json',
  'package-lock.json',
  'proxy.ts',
  'instrumentation.ts',
];
const sourceExtension = /\.(?:[cm]?[jt]sx?|json|css|scss|sql|prisma)$/;
const skippedDirectories = new Set([
  'node_modules',
  'test-support',
  'fixtures',
  'target',
  '__pycache__',
  '.pytest_cache',
]);
const skippedPaths = new Set([path.join('server', 'db', 'generated')]);
const testFile = /\.test\.[cm]?[jt]sx?$/;

// ── ensureBuilt ───────────────────────────────────────────────────────────────────────────────

let building: Promise<void> | undefined;

/**
 * Runs `next build` when `.next/BUILD_ID` is missing or older than the newest source file, at most
 * once at a time across processes (a lock file), once per test process. Output goes to
 * `buildLogFile`; a failed build throws with its tail.
 */
export function ensureBuilt(): Promise<void> {
  building ??= buildIfStale().catch((error: unknown) => {
    building = undefined;
    throw error;
  });
  return building;
}

/** Why the build is stale, or null when it is fresh. */
export async function buildStaleness(): Promise<string | null> {
  const built = await stat(buildIdFile).catch(() => null);
  if (built === null) return '.next/BUILD_ID is missing';
  const newest = await newestSource();
  if (newest !== null && newest.mtimeMs > built.mtimeMs) {
    return `${newest.file} changed after the last build`;
  }
  return null;
}

async function buildIfStale(): Promise<void> {
  await waitForForeignBuild();
  if ((await buildStaleness()) === null) return;
  await withLock(buildLockFile, LOCK_WAIT_MS, async () => {
    for (let attempt = 1; ; attempt++) {
      // Another process may have built while this one waited.
      await waitForForeignBuild();
      const reason = await buildStaleness();
      if (reason === null) return;
      try {
        await runBuild(reason);
        return;
      } catch (error) {
        // Someone ran `next build` by hand between the check and ours: wait for it, look again.
        if (attempt < 3 && String(error).includes('already running')) continue;
        throw error;
      }
    }
  });
}

/**
 * Whether a `next build` outside this harness (someone's `npm run build`) is running: Next holds
 * an flock on `.next/lock` while it builds, and wipes `.next` when it starts.
 */
async function foreignBuildRunning(): Promise<boolean> {
  const lock = path.join(repoRoot, '.next', 'lock');
  if ((await stat(lock).catch(() => null)) === null) return false;
  const probe = await execa('flock', ['--nonblock', '--conflict-exit-code', '75', lock, 'true'], {
    reject: false,
  });
  return probe.exitCode === 75;
}

async function waitForForeignBuild(): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  let told = false;
  while (await foreignBuildRunning()) {
    if (!told) {
      process.stderr.write('[app-server] waiting for another `next build` to finish\n');
      told = true;
    }
    if (Date.now() > deadline) throw new Error('another `next build` did not finish in time');
    await sleep(1_000);
  }
}

async function newestSource(): Promise<{ file: string; mtimeMs: number } | null> {
  let newest: { file: string; mtimeMs: number } | null = null;
  const consider = (file: string, mtimeMs: number): void => {
    if (newest === null || mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
  };
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(path.join(repoRoot, relative), { withFileTypes: true }).catch(
      () => [],
    );
    for (const entry of entries) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (!skippedDirectories.has(entry.name) && !skippedPaths.has(child)) await walk(child);
      } else if (entry.isFile() && sourceExtension.test(entry.name) && !testFile.test(entry.name)) {
        const info = await stat(path.join(repoRoot, child)).catch(() => null);
        if (info !== null) consider(child, info.mtimeMs);
      }
    }
  };
  for (const root of sourceRoots) await walk(root);
  for (const file of sourceFiles) {
    const info = await stat(path.join(repoRoot, file)).catch(() => null);
    if (info !== null) consider(file, info.mtimeMs);
  }
  return newest;
}

async function runBuild(reason: string): Promise<void> {
  const started = new Date();
  process.stderr.write(`[app-server] next build (${reason}); log: ${buildLogFile}\n`);
  // The build must not touch ./data (a page that reads data while prerendering gets an empty dir).
  const scratchData = await mkdtemp(path.join(os.tmpdir(), 'sbx-build-data-'));
  const log = createWriteStream(buildLogFile);
  try {
    const child = spawn(process.execPath, [nextBin, 'build'], {
      cwd: repoRoot,
      env: childEnv({ NODE_ENV: 'production', SHADOWBOX_DATA_DIR: scratchData }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    const timer = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS);
    const { code, signal } = await exitOf(child).finally(() => {
      clearTimeout(timer);
    });
    await new Promise<void>((resolve) => log.end(resolve));
    if (code !== 0) {
      // Keep this log: the next build (any process's) overwrites buildLogFile.
      const kept = buildLogFile.replace(/\.log$/, `-failed-${process.pid}.log`);
      const text = await readFile(buildLogFile, 'utf8').catch(() => '');
      await writeFile(kept, text);
      const errors = text
        .split('\n')
        .filter((line) => /\b(?:error|failed)\b|ERR_|^\s*Type error/i.test(line))
        .slice(0, 30)
        .join('\n');
      throw new Error(
        `next build failed (${signal ?? `exit ${code}`}); full log: ${kept}\n` +
          `lines that mention errors:\n${errors}\nlast lines:\n${tail(text, 40)}`,
      );
    }
    // Date the build by its start, so a source saved during the build makes it stale again.
    await utimes(buildIdFile, started, started);
  } finally {
    if (!log.writableEnded) log.end();
    await rm(scratchData, { recursive: true, force: true });
  }
}

async function withLock<T>(file: string, waitMs: number, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const content = await readFile(file, 'utf8').catch(() => null);
    if (content === null) continue; // released in between
    const holder = Number.parseInt(content, 10);
    const age = Date.now() - ((await stat(file).catch(() => null))?.mtimeMs ?? Date.now());
    const stale = Number.isInteger(holder) && holder > 0 ? !isProcessAlive(holder) : age > 10_000;
    if (stale) {
      await rm(file, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`gave up waiting for ${file} (held by pid ${content.trim() || '?'})`);
    }
    await sleep(500);
  }
  try {
    return await work();
  } finally {
    await rm(file, { force: true });
  }
}

// ── startServer ───────────────────────────────────────────────────────────────────────────────

export interface StartOptions {
  /** SHADOWBOX_DATA_DIR of the server. */
  readonly dataDir: string;
  /** Extra environment (e.g. DATABASE_URL); `undefined` removes a variable. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** A fixed port (e.g. to restart on the same one); a free one by default. */
  readonly port?: number;
  readonly timeoutMs?: number;
}

export interface ServerHandle {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  readonly dataDir: string;
  /** Resolves when the server process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * Sends `signal` to the server process, waits for it to exit (30 s, then SIGKILL and an error),
   * then SIGKILLs whatever is left of its process group.
   */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** SIGKILL to the whole process group; resolves once no live member is left (10 s at most). */
  kill9(): Promise<void>;
  /** Everything the server printed so far (stdout and stderr interleaved; the last 1 MiB). */
  output(): string;
  /** The server process and its live descendants, from `ps`. */
  processTree(): Promise<ProcessInfo[]>;
}

const liveServers = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // A test process that dies must not leave detached servers behind.
  process.on('exit', () => {
    for (const child of liveServers) {
      if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
    }
  });
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Starts `next start` (detached: its own process group) and waits until `GET /` answers. */
export async function startServer(options: StartOptions): Promise<ServerHandle> {
  for (let attempt = 1; ; attempt++) {
    // A build started by hand elsewhere wipes .next: wait for it, and build if it left nothing.
    await waitForForeignBuild();
    if ((await stat(buildIdFile).catch(() => null)) === null) {
      building = undefined;
      await ensureBuilt();
    }
    const port = options.port ?? (await freePort());
    try {
      return await startOnce(options, port);
    } catch (error) {
      const text = String(error);
      // Another process may have taken the free port between the probe and the listen.
      const portTaken = options.port === undefined && text.includes('EADDRINUSE');
      const buildGone = text.includes('Could not find a production build');
      if (attempt >= 3 || !(portTaken || buildGone)) throw error;
    }
  }
}

async function startOnce(options: StartOptions, port: number): Promise<ServerHandle> {
  installExitHook();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [nextBin, 'start', '--hostname', '127.0.0.1', '--port', String(port)],
    {
      cwd: repoRoot,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: childEnv({
        NODE_ENV: 'production',
        SHADOWBOX_DATA_DIR: options.dataDir,
        HOST: '127.0.0.1',
        PORT: String(port),
        ...options.env,
      }),
    },
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not spawn next start');
  liveServers.add(child);

  const chunks: string[] = [];
  let size = 0;
  const collect = (chunk: Buffer): void => {
    const text = chunk.toString('utf8');
    chunks.push(text);
    size += text.length;
    while (size > OUTPUT_LIMIT && chunks.length > 1) size -= chunks.shift()?.length ?? 0;
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const output = (): string => chunks.join('');

  const state = { exited: false };
  const exited = exitOf(child).then((result) => {
    state.exited = true;
    liveServers.delete(child);
    return result;
  });

  const waitForGroup = async (timeoutMs: number): Promise<ProcessInfo[]> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const left = await processGroupMembers(pid);
      if (left.length === 0 || Date.now() > deadline) return left;
      await sleep(100);
    }
  };

  const kill9 = async (): Promise<void> => {
    killGroup(pid, 'SIGKILL');
    await exited;
    const left = await waitForGroup(10_000);
    if (left.length > 0) {
      throw new Error(
        `processes of the server's group survived SIGKILL: ${left.map((p) => `${p.pid} ${p.args}`).join('; ')}`,
      );
    }
  };

  const handle: ServerHandle = {
    url,
    port,
    pid,
    dataDir: options.dataDir,
    exited,
    output,
    kill9,
    async kill(signal: NodeJS.Signals = 'SIGTERM') {
      if (!state.exited) {
        try {
          process.kill(pid, signal);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
        }
        let timer: NodeJS.Timeout | undefined;
        const outcome = await Promise.race([
          exited,
          new Promise<'timeout'>((resolve) => {
            timer = setTimeout(() => {
              resolve('timeout');
            }, 30_000);
          }),
        ]);
        clearTimeout(timer);
        if (outcome === 'timeout') {
          await kill9();
          throw new Error(
            `next start did not exit within 30 s of ${signal}; output:\n${tail(output())}`,
          );
        }
      }
      // Stragglers of the group (the server is gone, nothing else owns them).
      killGroup(pid, 'SIGKILL');
      await waitForGroup(10_000);
    },
    async processTree() {
      return processTree(await listProcesses(), pid);
    },
  };

  const deadline = Date.now() + (options.timeoutMs ?? START_TIMEOUT_MS);
  for (;;) {
    if (state.exited) {
      const { code, signal } = await exited;
      await sleep(200); // the last of its output may still be in the pipes
      throw new Error(
        `next start exited (${signal ?? `code ${code}`}) before answering on ${url}; output:\n${tail(output())}`,
      );
    }
    try {
      const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(5_000) });
      await response.arrayBuffer();
      return handle;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await kill9().catch(() => undefined);
      throw new Error(
        `next start did not answer GET ${url}/ within ${options.timeoutMs ?? START_TIMEOUT_MS} ms; output:\n${tail(output())}`,
      );
    }
    await sleep(250);
  }
}

// ── tokens ────────────────────────────────────────────────────────────────────────────────────

/**
 * Makes an API token with the real CLI (`shadowbox token create --scopes … --json`) against the
 * data directory (and `env`, e.g. the same DATABASE_URL as the server). Returns the token.
 */
/** A person made with the real CLI (`shadowbox user add`, the password piped on stdin). */
export async function createUser(
  dataDir: string,
  user: { readonly username: string; readonly role: Role; readonly password?: string },
  options: { readonly env?: Readonly<Record<string, string>> } = {},
): Promise<void> {
  const result = await execa(
    process.execPath,
    [cliBin, 'user', 'add', user.username, '--role', user.role, '--json'],
    {
      cwd: repoRoot,
      env: childEnv({ SHADOWBOX_DATA_DIR: dataDir, ...options.env }),
      extendEnv: false,
      reject: false,
      timeout: 180_000,
      input: `${user.password ?? testPassword}\n`,
    },
  );
  if (result.exitCode !== 0 && !/already exists/.test(result.stdout)) {
    throw new Error(
      `shadowbox user add ${user.username} failed (exit ${String(result.exitCode)}):\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
    );
  }
}

export { testPassword };

/**
 * A token made with the real CLI. Its owner is `user` (made if missing, a reviewer unless `role`
 * says otherwise), by default `test-reviewer` for every token: an agent token and a reviewer
 * token of one test then see the same tasks, as one person's two tokens do.
 */
export async function createToken(
  dataDir: string,
  scopes: readonly Scope[],
  options: {
    readonly name?: string;
    readonly user?: string;
    readonly role?: Role;
    readonly env?: Readonly<Record<string, string>>;
  } = {},
): Promise<string> {
  const user = options.user ?? 'test-reviewer';
  await createUser(
    dataDir,
    { username: user, role: options.role ?? 'reviewer' },
    options.env === undefined ? {} : { env: options.env },
  );
  const args = [cliBin, 'token', 'create', '--user', user, '--scopes', scopes.join(','), '--json'];
  if (options.name !== undefined) args.push('--name', options.name);
  const result = await execa(process.execPath, args, {
    cwd: repoRoot,
    env: childEnv({ SHADOWBOX_DATA_DIR: dataDir, ...options.env }),
    extendEnv: false,
    reject: false,
    timeout: 180_000,
  });
  const token = result.exitCode === 0 ? parseTokenOutput(result.stdout) : undefined;
  if (token === undefined) {
    throw new Error(
      `shadowbox token create --user ${user} --scopes ${scopes.join(',')} failed (exit ${String(result.exitCode)}):\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
    );
  }
  return token;
}

/** The token in `token create` output: JSON with a `token` field, else a line starting `sbx_`. */
export function parseTokenOutput(stdout: string): string | undefined {
  const text = stdout.trim();
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && 'token' in parsed) {
      const { token } = parsed;
      if (typeof token === 'string' && token !== '') return token;
    }
  } catch {
    // not one JSON document
  }
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed.startsWith('sbx_')) return trimmed.split(/\s/)[0];
  }
  return undefined;
}

// ── helpers ───────────────────────────────────────────────────────────────────────────────────

/** The test process's environment without vitest's markers, plus `extra` (undefined deletes). */
function childEnv(extra: Readonly<Record<string, string | undefined>>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^(?:VITEST|__VITEST)/.test(key) || key === 'TEST' || key === 'NODE_ENV') {
      Reflect.deleteProperty(env, key);
    }
  }
  env.NEXT_TELEMETRY_DISABLED = '1';
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) Reflect.deleteProperty(env, key);
    else env[key] = value;
  }
  return env;
}

function exitOf(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      resolve({ code, signal });
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => {
        if (typeof address === 'object' && address !== null) resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

function tail(text: string, lines = 60): string {
  return text.split('\n').slice(-lines).join('\n');
}
