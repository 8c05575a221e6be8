import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  createRuntime,
  type RuntimeEnv,
  type RuntimeOptions,
  type ServerRuntime,
} from '../runtime';

/** A real runtime in a throw-away data directory, on a SQLite database inside it. */
export interface ScratchRuntime {
  readonly runtime: ServerRuntime;
  readonly dataDir: string;
  /** Closes the runtime, then deletes its data directory. */
  close(): Promise<void>;
}

/**
 * `createRuntime` on a fresh `mkdtemp` data directory (named from `prefix`), host 127.0.0.1,
 * port 0; `env` adds to that environment (say `egressAllow`).
 */
export async function openScratchRuntime(
  prefix: string,
  options: RuntimeOptions = {},
  env: Omit<Partial<RuntimeEnv>, 'dataDir' | 'database'> = {},
): Promise<ScratchRuntime> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), prefix));
  const removeDataDir = () => rm(dataDir, { recursive: true, force: true });
  let runtime: ServerRuntime;
  try {
    runtime = await createRuntime(
      {
        dataDir,
        host: '127.0.0.1',
        port: 0,
        ...env,
        database: { provider: 'sqlite', file: path.join(dataDir, 'db.sqlite') },
      },
      options,
    );
  } catch (error) {
    await removeDataDir();
    throw error;
  }
  return {
    runtime,
    dataDir,
    close: async () => {
      await runtime.close();
      await removeDataDir();
    },
  };
}
