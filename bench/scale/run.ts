/**
 * Scale-out figures (issue #14), on the machine's PostgreSQL (127.0.0.1:5432, trust auth):
 *  1. N small pytest tasks (baseline, then one hypothesis that fixes them) through the in-process
 *     runner (SQLite, one process), through one worker, and through two (separate processes and
 *     data directories sharing only PostgreSQL, a web process taking the REST calls). Both workers
 *     share this machine's cores, so the figure is the ratio, and the per-task overhead of the
 *     distributed path against the in-process one;
 *  2. event latency from a writer in another process (a worker's task store: the append's NOTIFY)
 *     to an SSE viewer on a web process (its LISTEN, then the rows read), p50/p95.
 *  3. (`--part cpuset`, or all) two machines simulated with CPU affinity: one worker pinned to CPU 0
 *     against two workers pinned to CPU 0 and CPU 1 (`taskset -a -p`, inherited by every run the
 *     worker starts; the web process unpinned), N tasks each; the throughput ratio (target ≥ 1.8×)
 *     and where the time goes, per phase, from the tasks' own events (server clock).
 * Run with `npm run bench:scale [-- --tasks 20 --events 300 --part tasks|events|cpuset|all]`;
 * scratch goes to bench/.work/scale/.
 */
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { createApiToken } from '../../server/auth/api-tokens';
import { createDb, type Db } from '../../server/db/client';
import { createRuntime } from '../../server/runtime';
import { postgresEventNotifier } from '../../server/tasks/cross-process-event-notifier';
import { PrismaTaskStore } from '../../server/tasks/prisma-task-store';
import { TaskEventBus } from '../../server/tasks/task-event-bus';
import {
  fixtureProject,
  packProject,
  type PackedProject,
} from '../../server/test-support/projects';
import {
  api,
  createArchiveTask,
  hasStatus,
  submitHypotheses,
  waitForTask,
  type ApiClient,
} from '../../server/test-support/rest-client';
import { serveRest } from '../../server/test-support/rest-server';
import { startCluster } from '../../server/test-support/scale-out-cluster';
import {
  createPostgresDatabase,
  openMigratedDatabase,
} from '../../server/test-support/scratch-databases';
import { readSse } from '../../server/test-support/sse';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '20' },
    events: { type: 'string', default: '300' },
    /** tasks | events | cpuset | all */
    part: { type: 'string', default: 'all' },
  },
});
const taskCount = Math.max(2, Number(values.tasks));
const eventCount = Math.max(20, Number(values.events));
const work = new URL('../.work/scale/', import.meta.url).pathname;
const project = fixtureProject('pytest-calc');
// The same settings for every path: an iteration starts as soon as its one hypothesis is in, and
// each process runs two task steps at once (this machine has two cores).
const settings = {
  SHADOWBOX_HYPOTHESIS_GATHER_SECS: '0',
  SHADOWBOX_WORKER_CAPACITY: '2',
  SHADOWBOX_WORKER_HEARTBEAT_SECS: '1',
};

const percentile = (samples: readonly number[], p: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

async function tokenFor(db: Db): Promise<string> {
  await db.user.create({
    data: {
      name: 'Bench',
      email: 'bench@users.shadowbox.invalid',
      username: 'bench',
      role: 'admin',
    },
  });
  return (await createApiToken(db, { user: 'bench', scopes: ['agent', 'reviewer'] })).token;
}

/** Wall time from the first create to the last task under review, each fixed in one iteration. */
async function runBatch(client: ApiClient, archive: PackedProject): Promise<number> {
  return (await runBatchOf(client, archive)).ms;
}

async function runBatchOf(
  client: ApiClient,
  archive: PackedProject,
): Promise<{ ms: number; ids: string[] }> {
  const started = performance.now();
  const ids = await Promise.all(
    Array.from({ length: taskCount }, () =>
      createArchiveTask(client, archive, {
        testCommand: project.testCommand,
        maxIterations: 1,
        hypothesesPerIteration: 1,
      }),
    ),
  );
  await Promise.all(
    ids.map(async (id) => {
      await waitForTask(client, id, hasStatus('awaiting_hypotheses'), 900_000, { intervalMs: 100 });
      const response = await submitHypotheses(client, id, [project.hypotheses.right]);
      if (response.status !== 202) throw new Error(`submit ${id}: ${response.status}`);
      await waitForTask(client, id, hasStatus('awaiting_review'), 900_000, { intervalMs: 100 });
    }),
  );
  return { ms: performance.now() - started, ids };
}

async function inProcess(archive: PackedProject): Promise<number> {
  const dataDir = path.join(work, 'in-process');
  const runtime = await createRuntime(
    { dataDir, database: { provider: 'sqlite', file: path.join(dataDir, 'shadowbox.db') } },
    { gatherMs: 0, taskConcurrency: 2, llm: null },
  );
  const { url, server } = await serveRest(runtime);
  try {
    return await runBatch(api(url, await tokenFor(runtime.db)), archive);
  } finally {
    server.close();
    server.closeAllConnections();
    await runtime.close();
  }
}

async function distributed(archive: PackedProject, workers: number): Promise<number> {
  const database = await openMigratedDatabase(createPostgresDatabase);
  const { config } = database.scratch;
  if (config.provider !== 'postgresql') throw new Error('expected PostgreSQL');
  const token = await tokenFor(database.db);
  const cluster = await startCluster({
    databaseUrl: config.url,
    root: path.join(work, `workers-${workers}`),
    workers,
    env: settings,
  });
  try {
    return await runBatch(api(cluster.url, token), archive);
  } finally {
    await cluster.close();
    await database.close();
  }
}

/** A worker's appends (this process) → NOTIFY → the web process's LISTEN → its SSE viewer. */
async function eventLatency(): Promise<number[]> {
  const database = await openMigratedDatabase(createPostgresDatabase);
  const { config } = database.scratch;
  if (config.provider !== 'postgresql') throw new Error('expected PostgreSQL');
  const token = await tokenFor(database.db);
  const cluster = await startCluster({
    databaseUrl: config.url,
    root: path.join(work, 'events'),
    workers: 0,
  });
  const db = createDb({ database: config });
  const store = new PrismaTaskStore(db, new TaskEventBus(), postgresEventNotifier('bench-worker'));
  const controller = new AbortController();
  try {
    const task = await db.task.create({
      data: { sourceKind: 'archive', archiveName: 'bench', testCommand: ['true'] },
    });
    const response = await fetch(`${cluster.url}/api/v1/tasks/${task.id}/events`, {
      headers: { authorization: `Bearer ${token}` },
      signal: controller.signal,
    });
    if (!response.ok || response.body === null) throw new Error(`SSE: ${response.status}`);
    const sent = new Map<number, number>();
    const latencies: number[] = [];
    const body = response.body;
    const reading = (async () => {
      for await (const message of readSse(body, controller.signal)) {
        const seq = Number(message.id);
        const at = sent.get(seq);
        if (at !== undefined) latencies.push(performance.now() - at);
        if (seq === eventCount) return;
      }
    })();
    for (let i = 1; i <= eventCount; i++) {
      sent.set(i, performance.now());
      await store.emit(task.id, {
        type: 'run.output',
        subject: 'bench',
        iteration: 0,
        lines: [`${i}`],
      });
      // Output batches arrive every few milliseconds, not back to back.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await reading;
    return latencies;
  } finally {
    controller.abort();
    await db.$disconnect();
    await cluster.close();
    await database.close();
  }
}

await rm(work, { recursive: true, force: true });
await mkdir(work, { recursive: true });
const archive = await packProject(project);
try {
  console.log(`1-minute load average at the start: ${os.loadavg()[0]?.toFixed(2) ?? '?'}`);
  if (values.part === 'all' || values.part === 'tasks') await taskFigures(archive);
  if (values.part === 'all' || values.part === 'events') await eventFigures();
  if (values.part === 'all' || values.part === 'cpuset') await cpusetFigures(archive);
} finally {
  await archive.cleanup();
}

async function taskFigures(archive: PackedProject): Promise<void> {
  console.log(`${taskCount} pytest-calc tasks (baseline + one fixing hypothesis each)`);
  const local = await inProcess(archive);
  const one = await distributed(archive, 1);
  const two = await distributed(archive, 2);
  const perTask = (ms: number) => (ms / taskCount).toFixed(0);
  console.log('| path | wall time | per task |');
  console.log('| --- | ---: | ---: |');
  console.log(
    `| in-process (SQLite, one process) | ${(local / 1000).toFixed(1)} s | ${perTask(local)} ms |`,
  );
  console.log(
    `| one worker (PostgreSQL, pg-boss) | ${(one / 1000).toFixed(1)} s | ${perTask(one)} ms |`,
  );
  console.log(`| two workers | ${(two / 1000).toFixed(1)} s | ${perTask(two)} ms |`);
  console.log(`two workers / one worker: ${(two / one).toFixed(2)}`);
  console.log(
    `distributed overhead per task (one worker − in-process) / N: ${((one - local) / taskCount).toFixed(0)} ms`,
  );
}

async function eventFigures(): Promise<void> {
  const latencies = await eventLatency();
  console.log(
    `event latency worker → viewer on a web process (${latencies.length}/${eventCount} events): ` +
      `p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, ` +
      `max ${Math.max(...latencies).toFixed(1)} ms; target p95 < 100 ms: ${percentile(latencies, 95) < 100 ? 'PASS' : 'MISS'}`,
  );
}

/** Where a batch's time went: per event type, the summed gaps since each task's previous event. */
interface Pinned {
  readonly ms: number;
  readonly load: string;
  /** Event type → summed ms since the task's previous event, over all tasks. */
  readonly phases: ReadonlyMap<string, number>;
  /** Summed durations of the sandboxed runs (baseline and hypothesis), ms. */
  readonly runMs: number;
}

/** Pins a process and all its threads to `cpu`; children it starts later inherit it. */
async function pin(pid: number | undefined, cpu: number): Promise<void> {
  if (pid === undefined) throw new Error('no pid to pin');
  await execa('taskset', ['-a', '-p', '-c', String(cpu), String(pid)]);
}

async function pinnedBatch(archive: PackedProject, cpus: readonly number[]): Promise<Pinned> {
  const database = await openMigratedDatabase(createPostgresDatabase);
  const { config } = database.scratch;
  if (config.provider !== 'postgresql') throw new Error('expected PostgreSQL');
  const token = await tokenFor(database.db);
  const cluster = await startCluster({
    databaseUrl: config.url,
    root: path.join(work, `pinned-${cpus.join('-')}`),
    workers: cpus.length,
    env: settings,
  });
  try {
    for (const [i, worker] of cluster.workers.entries()) await pin(worker.child.pid, cpus[i] ?? 0);
    const load = os.loadavg()[0]?.toFixed(2) ?? '?';
    const { ms, ids } = await runBatchOf(api(cluster.url, token), archive);
    const events = await database.db.event.findMany({
      where: { taskId: { in: ids } },
      select: { taskId: true, type: true, createdAt: true, seq: true },
      orderBy: [{ taskId: 'asc' }, { seq: 'asc' }],
    });
    const phases = new Map<string, number>();
    for (const [i, event] of events.entries()) {
      const previous = events[i - 1];
      if (previous?.taskId !== event.taskId) continue;
      const gap = event.createdAt.getTime() - previous.createdAt.getTime();
      phases.set(event.type, (phases.get(event.type) ?? 0) + gap);
    }
    const runs = await database.db.run.findMany({
      where: { taskId: { in: ids } },
      select: { durationMs: true },
    });
    const runMs = runs.reduce((sum, run) => sum + run.durationMs, 0);
    return { ms, load, phases, runMs };
  } finally {
    await cluster.close();
    await database.close();
  }
}

async function cpusetFigures(archive: PackedProject): Promise<void> {
  if (os.availableParallelism() < 2) throw new Error('the cpuset simulation needs two CPUs');
  const started = performance.now();
  console.log(
    `\ncpuset simulation: ${taskCount} pytest-calc tasks, one worker on CPU 0 vs two on CPUs 0 and 1 (web unpinned)`,
  );
  const one = await pinnedBatch(archive, [0]);
  const two = await pinnedBatch(archive, [0, 1]);
  const ratio = one.ms / two.ms;
  console.log('| workers | wall time | tasks/min | sandboxed runs (sum) | load at start |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const [name, f] of [
    ['one, CPU 0', one],
    ['two, CPUs 0 and 1', two],
  ] as const) {
    console.log(
      `| ${name} | ${(f.ms / 1000).toFixed(1)} s | ${((taskCount * 60_000) / f.ms).toFixed(1)} | ${(f.runMs / 1000).toFixed(1)} s | ${f.load} |`,
    );
  }
  console.log(
    `throughput two / one: ${ratio.toFixed(2)}× (target ≥ 1.8×: ${ratio >= 1.8 ? 'PASS' : 'MISS'})`,
  );
  console.log(
    "where the time goes: per event, the summed time since the task's previous event over all tasks",
  );
  console.log('| event (time before it) | one worker | two workers | two / one |');
  console.log('| --- | ---: | ---: | ---: |');
  const types = [...new Set([...one.phases.keys(), ...two.phases.keys()])].sort(
    (a, b) => (two.phases.get(b) ?? 0) - (two.phases.get(a) ?? 0),
  );
  for (const type of types) {
    const a = one.phases.get(type) ?? 0;
    const b = two.phases.get(type) ?? 0;
    console.log(
      `| ${type} | ${(a / 1000).toFixed(1)} s | ${(b / 1000).toFixed(1)} s | ${a === 0 ? '' : (b / a).toFixed(2)} |`,
    );
  }
  console.log(
    `cpuset part: ${((performance.now() - started) / 1000).toFixed(0)} s; load now ${os.loadavg()[0]?.toFixed(2) ?? '?'}`,
  );
}
