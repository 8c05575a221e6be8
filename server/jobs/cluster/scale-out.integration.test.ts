import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../auth/api-tokens';
import type { Db } from '../../db/client';
import type { TaskView } from '../../tasks/task-api';
import {
  copyProject,
  fixtureProject,
  packProject,
  slowHypothesis,
  type PackedProject,
} from '../../test-support/projects';
import {
  api,
  createArchiveTask,
  getTask,
  hasStatus,
  isRecord,
  review,
  submitHypotheses,
  waitForTask,
  type ApiClient,
} from '../../test-support/rest-client';
import {
  createPostgresDatabase,
  openMigratedDatabase,
  postgresAvailable,
  type MigratedDatabase,
} from '../../test-support/scratch-databases';
import {
  startCluster,
  type Cluster,
  type ClusterProcess,
} from '../../test-support/scale-out-cluster';

/*
 * One web process and two workers, each with its own data directory, sharing only PostgreSQL.
 * Six tasks; one worker is killed (-9) while it runs hypotheses: its tasks finish on the other,
 * rebuilt from the stored bundles; a viewer on the web process sees every task's events 1..N once
 * each; every approved patch applies to the source. Then a cancel sent to the web process stops a
 * run on the surviving worker.
 */
const skip = !postgresAvailable && process.env.SHADOWBOX_TEST_POSTGRES !== 'required';
const project = fixtureProject('pytest-calc');
const taskCount = 6;

/** Every event of the task as a viewer on the web process receives it, kept from the start. */
function watch(client: ApiClient, taskId: string) {
  const seqs: number[] = [];
  const controller = new AbortController();
  const reading = (async () => {
    try {
      for await (const message of client.sse(`/api/v1/tasks/${taskId}/events`, {
        signal: controller.signal,
      })) {
        if (message.id !== undefined && message.id !== '') seqs.push(Number(message.id));
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
  })();
  return {
    seqs,
    stop: async () => {
      controller.abort();
      await reading;
    },
  };
}

describe.skipIf(skip)('scale-out: one web process, two workers, PostgreSQL only', () => {
  let database: MigratedDatabase;
  let db: Db;
  let root: string;
  let archive: PackedProject;
  let client: ApiClient;
  let cluster: Cluster;

  beforeAll(async () => {
    database = await openMigratedDatabase(createPostgresDatabase);
    db = database.db;
    const { config } = database.scratch;
    if (config.provider !== 'postgresql') throw new Error('expected PostgreSQL');
    root = await mkdtemp(path.join(os.tmpdir(), 'sbx-scale-'));
    archive = await packProject(project);
    await db.user.create({
      data: { name: 'Ada', email: 'ada@users.shadowbox.invalid', username: 'ada', role: 'admin' },
    });
    const { token } = await createApiToken(db, { user: 'ada', scopes: ['agent', 'reviewer'] });
    cluster = await startCluster({
      databaseUrl: config.url,
      root,
      workers: 2,
      env: {
        SHADOWBOX_HYPOTHESIS_GATHER_SECS: '0.5',
        SHADOWBOX_WORKER_CAPACITY: '3',
        SHADOWBOX_WORKER_HEARTBEAT_SECS: '0.5',
        SHADOWBOX_WORKER_EXPIRY_SECS: '3',
      },
    });
    client = api(cluster.url, token);
  }, 240_000);

  afterAll(async () => {
    await cluster.close();
    await archive.cleanup();
    await database.close();
    await rm(root, { recursive: true, force: true });
  });

  const workerOf = async (taskId: string): Promise<string | null> =>
    (await db.task.findUniqueOrThrow({ where: { id: taskId }, select: { workerId: true } }))
      .workerId;

  /** The spawned worker whose registered pid is `workerId`'s. */
  const procOf = async (workerId: string): Promise<ClusterProcess> => {
    const { pid } = await db.worker.findUniqueOrThrow({ where: { id: workerId } });
    const proc = cluster.workers.find((p) => p.child.pid === pid);
    if (proc === undefined) throw new Error(`no spawned process has pid ${pid}`);
    return proc;
  };

  it('a killed worker’s tasks finish on the other, events 1..N once each, patches apply', async () => {
    const ids: string[] = [];
    for (let i = 0; i < taskCount; i++) {
      ids.push(
        await createArchiveTask(client, archive, {
          testCommand: project.testCommand,
          maxIterations: 2,
          hypothesesPerIteration: 1,
        }),
      );
    }
    const viewers = new Map(ids.map((id) => [id, watch(client, id)]));
    for (const id of ids) await waitForTask(client, id, hasStatus('awaiting_hypotheses'), 180_000);
    // Slow enough that the kill lands while the victim's hypotheses run.
    for (const id of ids) {
      const response = await submitHypotheses(client, id, [slowHypothesis(project, 8).hypothesis]);
      expect(response.status).toBe(202);
    }
    let victimId: string | null = null;
    while (victimId === null) {
      const running = await db.event.findFirst({
        where: { taskId: { in: ids }, type: 'hypothesis.started' },
        select: { taskId: true },
      });
      victimId = running === null ? null : await workerOf(running.taskId);
      if (victimId === null) await sleep(100);
    }
    const victim = await procOf(victimId);
    const moved = (await db.task.findMany({ where: { workerId: victimId }, select: { id: true } }))
      .map((t) => t.id)
      .filter((id) => ids.includes(id));
    victim.kill('SIGKILL');
    await victim.exited;

    const finished: TaskView[] = [];
    for (const id of ids) {
      finished.push(await waitForTask(client, id, hasStatus('awaiting_review'), 300_000));
    }
    const survivor = cluster.workers.find((p) => p !== victim);
    expect(moved.length).toBeGreaterThan(0);
    for (const id of moved) {
      const now = await workerOf(id);
      expect(now).not.toBe(victimId);
      expect(now).not.toBeNull();
      if (now !== null) expect(await procOf(now)).toBe(survivor);
      const restored = await db.event.count({ where: { taskId: id, type: 'workspace.restored' } });
      expect(restored).toBeGreaterThan(0);
    }

    for (const task of finished) {
      const viewer = viewers.get(task.id);
      if (viewer === undefined) throw new Error('no viewer');
      while (viewer.seqs.length < task.lastEventId) await sleep(50);
      await viewer.stop();
      const expected = Array.from({ length: task.lastEventId }, (_, i) => i + 1);
      expect(viewer.seqs.slice(0, task.lastEventId)).toEqual(expected);
      expect(new Set(viewer.seqs).size).toBe(viewer.seqs.length);
    }

    for (const id of ids) {
      const diff = await client.get(`/api/v1/tasks/${id}/diff`);
      const sha256 = isRecord(diff.body) ? diff.body.sha256 : undefined;
      if (typeof sha256 !== 'string') throw new Error(`no diff for ${id}`);
      expect((await review(client, id, 'approve', sha256)).status).toBe(200);
      const patch = await client.bytes(`/api/v1/tasks/${id}/patch`);
      const source = await copyProject(project);
      const file = path.join(source, '..', 'fix.patch');
      await writeFile(file, patch.body);
      const applied = await execa('git', ['apply', '--check', file], {
        cwd: source,
        reject: false,
      });
      expect(applied.stderr).toBe('');
      expect(applied.exitCode).toBe(0);
      await rm(path.dirname(source), { recursive: true, force: true });
    }
  }, 600_000);

  it('a cancel sent to the web process stops a run on a worker', async () => {
    const id = await createArchiveTask(client, archive, {
      testCommand: project.testCommand,
      maxIterations: 1,
      hypothesesPerIteration: 1,
    });
    await waitForTask(client, id, hasStatus('awaiting_hypotheses'), 180_000);
    // Far longer than the test waits: only a kill ends this run before the task does.
    await submitHypotheses(client, id, [slowHypothesis(project, 600).hypothesis]);
    while ((await db.event.count({ where: { taskId: id, type: 'hypothesis.started' } })) === 0) {
      await sleep(100);
    }
    expect(await workerOf(id)).not.toBeNull();
    expect((await client.post(`/api/v1/tasks/${id}/cancel`)).status).toBe(200);
    const cancelled = await waitForTask(client, id, hasStatus('cancelled'), 60_000, {
      stopOn: new Set(),
    });
    expect(cancelled.status).toBe('cancelled');
    const view = await getTask(client, id);
    expect(view.iterations.flatMap((i) => i.hypotheses).some((h) => h.verdict === 'winner')).toBe(
      false,
    );
  }, 300_000);
});
