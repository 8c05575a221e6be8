import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStaleness, ensureBuilt, startServer, type ServerHandle } from './app-server';
import { listProcesses, isZombie } from './processes';

const minutes = (n: number): number => n * 60_000;

describe('app server harness', () => {
  let dataDir: string;
  const servers: ServerHandle[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-harness-'));
  }, minutes(20));

  afterAll(async () => {
    for (const server of servers) await server.kill9().catch(() => undefined);
    const dir = dataDir as string | undefined; // unset when the build failed
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('leaves a build behind', async () => {
    // Not "fresh": someone may save a source file meanwhile (the next test run builds again).
    expect(await buildStaleness()).not.toBe('.next/BUILD_ID is missing');
  });

  it('serves the home page, and kill9() leaves no process of the server behind', async () => {
    const server = await startServer({ dataDir });
    servers.push(server);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const response = await fetch(`${server.url}/`);
    expect(response.status, server.output()).toBe(200);
    expect(await response.text()).toContain('Shadowbox');

    const tree = await server.processTree();
    expect(tree.map((p) => p.pid)).toContain(server.pid);

    await server.kill9();
    const alive = new Set((await listProcesses()).filter((p) => !isZombie(p)).map((p) => p.pid));
    expect(tree.filter((p) => alive.has(p.pid))).toEqual([]);
    expect((await server.exited).signal).toBe('SIGKILL');
    await expect(fetch(`${server.url}/`, { signal: AbortSignal.timeout(5_000) })).rejects.toThrow();
  });

  it('restarts on the same data directory and port, and kill() stops it gracefully', async () => {
    const first = await startServer({ dataDir });
    servers.push(first);
    await first.kill9();

    const second = await startServer({ dataDir, port: first.port });
    servers.push(second);
    expect(second.url).toBe(first.url);
    expect((await fetch(`${second.url}/`)).status).toBe(200);

    await second.kill();
    const { code, signal } = await second.exited;
    // Next answers SIGTERM by shutting down and exiting 128 + 15.
    const graceful = code === 0 || code === 143 || signal === 'SIGTERM';
    expect(graceful, `exit ${String(code)} ${String(signal)}`).toBe(true);
    expect(await second.processTree()).toEqual([]);
  });
});
