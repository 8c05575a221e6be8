import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from './app-server';

/**
 * A scale-out deployment on this machine for tests and benchmarks: one web process (the REST API
 * without a Next build, server/test-support/web-process.ts) and N `shadowbox serve --role worker`
 * processes, each with its own data directory under `root`, sharing only the PostgreSQL database.
 */
export interface ClusterProcess {
  readonly name: string;
  readonly child: ChildProcess;
  output(): string;
  readonly exited: Promise<void>;
  /** Signals the whole process group (the sandboxed runs it started too, as a crash would). */
  kill(signal: NodeJS.Signals): void;
}

export interface Cluster {
  /** The web process's origin. */
  readonly url: string;
  readonly web: ClusterProcess;
  readonly workers: readonly ClusterProcess[];
  /** SIGKILLs every process group and waits for the processes to exit. */
  close(): Promise<void>;
}

export interface ClusterOptions {
  readonly databaseUrl: string;
  readonly root: string;
  readonly workers: number;
  /** Extra environment for every process (e.g. SHADOWBOX_WORKER_CAPACITY). */
  readonly env?: Readonly<Record<string, string>>;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const env = (dataDir: string): NodeJS.ProcessEnv => ({
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: options.databaseUrl,
    SHADOWBOX_DATA_DIR: path.join(options.root, dataDir),
    ...options.env,
  });
  const cli = path.join(repoRoot, 'bin', 'shadowbox.mjs');
  const web = start('web', ['--import', 'tsx', 'server/test-support/web-process.ts'], env('web'));
  const workers = Array.from({ length: options.workers }, (_, i) =>
    start(`worker-${i + 1}`, [cli, 'serve', '--role', 'worker'], env(`worker-${i + 1}`)),
  );
  const all = [web, ...workers];
  const close = async (): Promise<void> => {
    for (const proc of all) proc.kill('SIGKILL');
    await Promise.all(all.map((proc) => proc.exited));
  };
  try {
    const url = await waitForOutput(web, /READY (\S+)/);
    for (const worker of workers) await waitForOutput(worker, /running tasks/);
    return { url, web, workers, close };
  } catch (error) {
    await close();
    throw error;
  }
}

function start(name: string, args: readonly string[], env: NodeJS.ProcessEnv): ClusterProcess {
  const child = spawn(process.execPath, args, { cwd: repoRoot, env, detached: true });
  let text = '';
  const keep = (chunk: Buffer): void => {
    text = (text + chunk.toString()).slice(-1_000_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    name,
    child,
    output: () => text,
    exited,
    kill(signal) {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    },
  };
}

async function waitForOutput(
  proc: ClusterProcess,
  pattern: RegExp,
  timeoutMs = 120_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = pattern.exec(proc.output());
    if (found !== null) return found[1] ?? found[0];
    if (proc.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`${proc.name} did not start:\n${proc.output().slice(-4000)}`);
    }
    await sleep(100);
  }
}
