import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type ServerRuntime } from '../../runtime';
import {
  createPostgresDatabase,
  postgresAvailable,
  type ScratchDatabase,
} from '../../test-support/scratch-databases';

const skip = !postgresAvailable && process.env.SHADOWBOX_TEST_POSTGRES !== 'required';

describe('process roles', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function dataDir(): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'shadowbox-roles-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    return dir;
  }

  it('refuses a web or worker process on SQLite, which is one process', async () => {
    const dir = await dataDir();
    const database = { provider: 'sqlite', file: path.join(dir, 'db.sqlite') } as const;
    await expect(createRuntime({ dataDir: dir, database }, { role: 'web' })).rejects.toThrow(
      /SHADOWBOX_ROLE=web needs a PostgreSQL DATABASE_URL/,
    );
  });

  it.skipIf(skip)('on PostgreSQL a web process runs no tasks and lists the workers', async () => {
    const scratch: ScratchDatabase = await createPostgresDatabase();
    cleanups.push(() => scratch.drop());
    const open = async (role: 'web' | 'worker', workerId?: string): Promise<ServerRuntime> => {
      const runtime = await createRuntime(
        { dataDir: await dataDir(), database: scratch.config },
        { role, llm: null, ...(workerId === undefined ? {} : { workerId }) },
      );
      cleanups.push(() => runtime.close());
      return runtime;
    };
    const worker = await open('worker', 'worker-1');
    const web = await open('web');
    expect([worker.workerId, web.workerId]).toEqual(['worker-1', null]);
    expect(await web.listWorkers()).toMatchObject([
      { id: 'worker-1', state: 'live', capacity: 2, tasks: 0 },
    ]);
    await worker.close();
    expect(await web.listWorkers()).toMatchObject([{ id: 'worker-1', state: 'stopped' }]);
  });
});
