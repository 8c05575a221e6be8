import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken, type Actor } from '../auth';
import { connectInMemory, call, errorOf } from '../api/mcp/test-support/clients';
import { mcpServicesOf } from '../api/mcp/services';
import { handleCreateTask } from '../api/rest';
import { createContextInner } from '../api/trpc/context';
import { createCaller } from '../api/trpc/root';
import { defaultRunLimits } from '../engine/sandbox';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import { buildTar } from '../test-support/tar-builder';
import { tokenIn, userIn } from '../test-support/actors';

/**
 * The server's run caps are ceilings: an author asked `maxMemoryMb=999999`, `maxPids=999999` and
 * `maxDiskMb=999999` on create and got them (6 GB and 3,000 processes ran without a kill). Now a
 * task may only lower them, over REST, tRPC and MCP alike; an admin may raise them up to the
 * hard maximum, never past it.
 */
describe('run caps are ceilings', () => {
  let scratch: ScratchRuntime;
  let authorToken: string;
  let author: Actor;
  let admin: Actor;
  const gitUrl = 'https://git.example.com/project.git';
  const hardMax = { maxMemoryMb: 8192, maxPids: 2048, maxDiskMb: 8192, maxInodes: 400_000 };

  beforeAll(async () => {
    scratch = await openScratchRuntime(
      'sbx-ceilings-',
      { taskConcurrency: 1 },
      { runLimits: defaultRunLimits, hardMaxRunLimits: hardMax },
    );
    const { db } = scratch.runtime;
    author = await userIn(db, 'carol', 'author');
    admin = await userIn(db, 'root-admin', 'admin');
    authorToken = (await createApiToken(db, { user: 'carol', scopes: ['agent'] })).token;
  }, 120_000);

  afterAll(async () => {
    await scratch.close();
  });

  /** A one-file project as an uploaded archive the service may import. */
  async function archive(): Promise<{ kind: 'archive'; file: string; name: string }> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-ceilings-upload-'));
    const file = path.join(dir, 'p.tar');
    await writeFile(file, buildTar([{ name: 'calc.py', data: 'x = 1\n' }]));
    return { kind: 'archive', file, name: 'p.tar' };
  }

  const above = {
    maxMemoryMb:
      "maxMemoryMb 999999 is above this server's ceiling of 4096 MB (an admin may raise it)",
    maxPids:
      "maxPids 999999 is above this server's ceiling of 1024 processes (an admin may raise it)",
    maxDiskMb: "maxDiskMb 999999 is above this server's ceiling of 4096 MB (an admin may raise it)",
    maxInodes:
      "maxInodes 999999 is above this server's ceiling of 200000 files (an admin may raise it)",
  } as const;

  it.each(Object.entries(above))(
    'refuses %s above the ceiling over REST with 400 INVALID_ARGUMENT naming it',
    async (field, message) => {
      const response = await handleCreateTask(
        new Request('http://127.0.0.1/api/v1/tasks', {
          method: 'POST',
          headers: { authorization: `Bearer ${authorToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ gitUrl, testCommand: ['pytest', '-q'], [field]: 999_999 }),
        }),
        { runtime: scratch.runtime },
        undefined,
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: { code: 'INVALID_ARGUMENT', message } });
    },
  );

  it('refuses a cap above the ceiling over tRPC', async () => {
    const caller = createCaller(createContextInner({ runtime: scratch.runtime, actor: author }));
    await expect(
      caller.tasks.create({ gitUrl, testCommand: ['pytest', '-q'], maxPids: 999_999 }),
    ).rejects.toMatchObject({ cause: { code: 'INVALID_ARGUMENT', message: above.maxPids } });
  });

  it('refuses a cap above the ceiling over MCP', async () => {
    const token = await tokenIn(scratch.runtime.db, 'carol', ['agent']);
    const client = await connectInMemory(mcpServicesOf(scratch.runtime), token, 'http');
    const result = await call(client, 'create_task', {
      gitUrl,
      testCommand: ['pytest', '-q'],
      maxDiskMb: 999_999,
    });
    expect(errorOf(result)).toEqual({ code: 'INVALID_ARGUMENT', message: above.maxDiskMb });
    await client.close();
  });

  it('creates no task when a cap is refused', async () => {
    expect(await scratch.runtime.db.task.count({ where: { maxMemoryMb: 999_999 } })).toBe(0);
  });

  it('lets an author lower the caps, or ask exactly the ceiling', async () => {
    const { id } = await scratch.runtime.tasks.createTask(
      {
        source: await archive(),
        testCommand: ['pytest', '-q'],
        limits: { maxMemoryMb: 64, maxPids: 1024, maxInodes: 5000 },
      },
      author,
    );
    const row = await scratch.runtime.db.task.findUniqueOrThrow({ where: { id } });
    expect([row.maxMemoryMb, row.maxPids, row.maxDiskMb, row.maxInodes]).toEqual([
      64,
      1024,
      null,
      5000,
    ]);
  });

  it('lets an admin raise a cap to the hard maximum, and refuses one past it', async () => {
    const { id } = await scratch.runtime.tasks.createTask(
      { source: await archive(), testCommand: ['pytest', '-q'], limits: { maxMemoryMb: 8192 } },
      admin,
    );
    const row = await scratch.runtime.db.task.findUniqueOrThrow({ where: { id } });
    expect(row.maxMemoryMb).toBe(8192);
    await expect(
      scratch.runtime.tasks.createTask(
        { source: await archive(), testCommand: ['pytest', '-q'], limits: { maxMemoryMb: 8193 } },
        admin,
      ),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: "maxMemoryMb 8193 is above this server's hard maximum of 8192 MB",
    });
  });
});
