/**
 * An agent's round trip (issue 27, target 3): from `POST /api/v1/tasks/{id}/hypotheses` with the
 * task's `hypothesesPerIteration` hypotheses (so no gather wait) to the verdict visible in
 * `GET /api/v1/tasks/{id}` and on the task's SSE stream, against the same test command run
 * directly in a copy of the task's worktree (taken at the same checkpoint, build outputs included)
 * with the same hypothesis written into it. On a pytest and a cargo fixture project, on SQLite (one
 * process, the in-process job table) and on PostgreSQL (a web process and one worker, pg-boss).
 *
 * Per round: a new task (untimed: intake, baseline, until it awaits hypotheses), the SSE stream
 * opened and the copy made, then the timed submission, then the direct run. One warm-up round per
 * project and database is discarded. Target: round trip ≤ 1.2 × direct + 150 ms (medians).
 *
 * `npx tsx bench/roundtrip/run.ts [--runs 5] [--projects pytest,cargo] [--databases sqlite,postgresql]`;
 * scratch goes to bench/.work/roundtrip/.
 */
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { createApiToken } from '../../server/auth/api-tokens';
import type { Db } from '../../server/db/client';
import { runProcess } from '../../server/engine/process';
import { sandboxEnv } from '../../server/engine/sandbox';
import { workspaceLayout, worktreePath } from '../../server/engine/workspace';
import { createRuntime } from '../../server/runtime';
import {
  fixtureProject,
  packProject,
  type FixtureProject,
  type ProjectName,
} from '../../server/test-support/projects';
import {
  api,
  createArchiveTask,
  getTask,
  hasStatus,
  isRecord,
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
import type { TaskView } from '../../server/tasks/task-api';

const execFileAsync = promisify(execFile);

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    projects: { type: 'string', default: 'pytest,cargo' },
    databases: { type: 'string', default: 'sqlite,postgresql' },
  },
});
const runs = Math.max(1, Number(values.runs));
const projectNames: Record<string, ProjectName> = { pytest: 'pytest-calc', cargo: 'cargo-calc' };
const projects = values.projects.split(',').map((name) => {
  const project = projectNames[name];
  if (project === undefined) throw new Error(`unknown project ${name} (pytest, cargo)`);
  return project;
});
const databases = values.databases.split(',').map((name) => {
  if (name !== 'sqlite' && name !== 'postgresql') throw new Error(`unknown database ${name}`);
  return name;
});
const work = new URL('../.work/roundtrip/', import.meta.url).pathname;
const target = { factor: 1.2, plusMs: 150 };
/** How often the agent's GET looks; adds at most this much to the GET figure. */
const getEveryMs = 10;

interface Backend {
  readonly client: ApiClient;
  /** The data directory of the process that runs the task's steps (holds the worktrees). */
  readonly runnerDataDir: string;
  close(): Promise<void>;
}

interface Round {
  /** Submission → the verdict in GET /tasks/{id} (the iteration's hypothesis judged). */
  readonly getMs: number;
  /** Submission → `hypothesis.finished` on the SSE stream. */
  readonly sseHypothesisMs: number;
  /** Submission → `iteration.finished` on the SSE stream. */
  readonly sseIterationMs: number;
  /** The POST itself (202). */
  readonly postMs: number;
  /** The same command run directly in a copy of the worktree with the same change. */
  readonly directMs: number;
  /** Spans between the task's own events (server clock), for where the time goes. */
  readonly spans: Readonly<Record<string, number>>;
}

const median = (samples: readonly number[]): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? Number.NaN)
    : ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
};
const msText = (ms: number): string => `${ms.toFixed(0)} ms`;
const loadavg = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

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

async function sqliteBackend(): Promise<Backend> {
  const dataDir = path.join(work, 'sqlite');
  const runtime = await createRuntime(
    { dataDir, database: { provider: 'sqlite', file: path.join(dataDir, 'shadowbox.db') } },
    { llm: null },
  );
  const { url, server } = await serveRest(runtime);
  return {
    client: api(url, await tokenFor(runtime.db)),
    runnerDataDir: dataDir,
    close: async () => {
      server.close();
      server.closeAllConnections();
      await runtime.close();
    },
  };
}

async function postgresBackend(): Promise<Backend> {
  const database = await openMigratedDatabase(createPostgresDatabase);
  const { config } = database.scratch;
  if (config.provider !== 'postgresql') throw new Error('expected PostgreSQL');
  const token = await tokenFor(database.db);
  const root = path.join(work, 'postgresql');
  const cluster = await startCluster({ databaseUrl: config.url, root, workers: 1 });
  return {
    client: api(cluster.url, token),
    runnerDataDir: path.join(root, 'worker-1'),
    close: async () => {
      await cluster.close();
      await database.close();
    },
  };
}

/** Opens the task's event stream after `lastEventId` and resolves once the server answered. */
async function openEvents(
  client: ApiClient,
  id: string,
  lastEventId: number,
  signal: AbortSignal,
): Promise<Map<string, Promise<number>>> {
  const response = await fetch(`${client.url}/api/v1/tasks/${encodeURIComponent(id)}/events`, {
    headers: {
      accept: 'text/event-stream',
      authorization: `Bearer ${client.token ?? ''}`,
      'last-event-id': String(lastEventId),
    },
    signal,
  });
  if (response.status !== 200 || response.body === null) {
    throw new Error(`SSE: ${response.status} ${await response.text()}`);
  }
  const wanted = ['hypothesis.finished', 'iteration.finished'];
  const resolvers = new Map<string, (at: number) => void>();
  const seen = new Map(
    wanted.map((type) => [type, new Promise<number>((resolve) => resolvers.set(type, resolve))]),
  );
  const body = response.body;
  void (async () => {
    for await (const message of readSse(body, signal)) {
      const data = JSON.parse(message.data) as unknown;
      const type = isRecord(data) && typeof data.type === 'string' ? data.type : message.event;
      resolvers.get(type)?.(performance.now());
      resolvers.delete(type);
    }
  })().catch(() => undefined);
  return seen;
}

/** The verdict of the iteration's (one) hypothesis, once GET shows it judged. */
function judged(view: TaskView, iteration: number): boolean {
  const it = view.iterations.find((i) => i.index === iteration);
  const h = it?.hypotheses[0];
  return h !== undefined && (h.exitCode !== null || h.error !== null);
}

/** The spans between the task's stored events after the submission (server clock). */
async function eventSpans(
  client: ApiClient,
  id: string,
  after: number,
): Promise<Record<string, number>> {
  const at = new Map<string, number>();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 5000);
  try {
    for await (const message of client.sse(`/api/v1/tasks/${encodeURIComponent(id)}/events`, {
      lastEventId: after,
      signal: controller.signal,
    })) {
      const data = JSON.parse(message.data) as { type?: string; createdAt?: string };
      if (data.type !== undefined && data.createdAt !== undefined && !at.has(data.type)) {
        at.set(data.type, Date.parse(data.createdAt));
      }
      if (data.type === 'iteration.finished') break;
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  const span = (from: string, to: string): number =>
    (at.get(to) ?? Number.NaN) - (at.get(from) ?? Number.NaN);
  return {
    'hypotheses.submitted → hypothesis.started': span('hypotheses.submitted', 'hypothesis.started'),
    'hypothesis.started → hypothesis.finished': span('hypothesis.started', 'hypothesis.finished'),
    'hypothesis.finished → iteration.finished': span('hypothesis.finished', 'iteration.finished'),
  };
}

async function round(
  backend: Backend,
  project: FixtureProject,
  archive: Awaited<ReturnType<typeof packProject>>,
): Promise<Round> {
  const { client } = backend;
  const id = await createArchiveTask(client, archive, {
    testCommand: project.testCommand,
    maxIterations: 1,
    hypothesesPerIteration: 1,
  });
  const ready = await waitForTask(client, id, hasStatus('awaiting_hypotheses'), 600_000, {
    intervalMs: 50,
  });
  // The direct run's copy: the worktree as the shadow sees it (the baseline ran in it, so its
  // build outputs are warm), copied before the submission changes it.
  const worktree = worktreePath(workspaceLayout(backend.runnerDataDir), id);
  const copy = path.join(work, 'copy');
  await rm(copy, { recursive: true, force: true });
  await execFileAsync('cp', ['-a', worktree, copy]);
  const home = path.join(work, 'home');
  await mkdir(home, { recursive: true });
  const env = sandboxEnv({ home, tmpdir: home });
  const [file, ...args] = project.testCommand;
  if (file === undefined) throw new Error('empty test command');
  if (project.name === 'cargo-calc') {
    // A copy at another path may find some outputs stale: brought up to date untimed, so that
    // the direct run starts as warm as the shadow does.
    await runProcess(file, [...args, '--no-run'], { cwd: copy, env, timeoutMs: 600_000 });
  }

  const controller = new AbortController();
  try {
    const seen = await openEvents(client, id, ready.lastEventId, controller.signal);
    const hypothesis = project.hypotheses.right;
    const started = performance.now();
    const response = await submitHypotheses(client, id, [hypothesis]);
    const postMs = performance.now() - started;
    if (response.status !== 202) throw new Error(`submit: ${response.status} ${response.text}`);
    const iteration = ready.iterations.at(-1)?.index ?? 1;
    let getAt = Number.NaN;
    const deadline = Date.now() + 600_000;
    while (Date.now() < deadline) {
      if (judged(await getTask(client, id), iteration)) {
        getAt = performance.now();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, getEveryMs));
    }
    const hypothesisAt = await seen.get('hypothesis.finished');
    const iterationAt = await seen.get('iteration.finished');
    const spans = await eventSpans(client, id, ready.lastEventId);

    for (const edit of hypothesis.edits) await writeFile(path.join(copy, edit.path), edit.content);
    const direct = performance.now();
    const result = await runProcess(file, args, { cwd: copy, env, timeoutMs: 600_000 });
    const directMs = performance.now() - direct;
    if (result.exitCode !== 0) throw new Error(`direct run failed:\n${result.output.text}`);
    return {
      getMs: getAt - started,
      sseHypothesisMs: (hypothesisAt ?? Number.NaN) - started,
      sseIterationMs: (iterationAt ?? Number.NaN) - started,
      postMs,
      directMs,
      spans,
    };
  } finally {
    controller.abort();
    await rm(copy, { recursive: true, force: true });
  }
}

async function measure(database: string, backend: Backend): Promise<string[]> {
  const lines: string[] = [];
  for (const name of projects) {
    const project = fixtureProject(name);
    const archive = await packProject(project);
    try {
      const load = loadavg();
      await round(backend, project, archive); // warm-up, discarded
      const rounds: Round[] = [];
      for (let i = 0; i < runs; i++) rounds.push(await round(backend, project, archive));
      const m = (pick: (r: Round) => number): number => median(rounds.map(pick));
      const direct = m((r) => r.directMs);
      const limit = target.factor * direct + target.plusMs;
      const get = m((r) => r.getMs);
      const sse = m((r) => r.sseIterationMs);
      const verdict = (ms: number): string => (ms <= limit ? 'PASS' : 'MISS');
      lines.push(
        `| ${database} | ${name} | ${msText(direct)} | ${msText(get)} ${verdict(get)} | ${msText(m((r) => r.sseHypothesisMs))} | ${msText(sse)} ${verdict(sse)} | ${(get / direct).toFixed(2)}× | ${msText(get - direct)} | ${msText(limit)} | ${msText(m((r) => r.postMs))} | ${load} |`,
      );
      const spans = Object.keys(rounds[0]?.spans ?? {});
      process.stderr.write(
        `${database} ${name}: ${spans.map((s) => `${s} ${msText(m((r) => r.spans[s] ?? Number.NaN))}`).join('; ')}\n`,
      );
    } finally {
      await archive.cleanup();
    }
  }
  return lines;
}

const started = performance.now();
await rm(work, { recursive: true, force: true });
await mkdir(work, { recursive: true });
console.log(
  `Agent round trip, median of ${runs} rounds after one warm-up; load at start ${loadavg()}`,
);
const rows: string[] = [];
for (const database of databases) {
  const backend = database === 'sqlite' ? await sqliteBackend() : await postgresBackend();
  try {
    rows.push(...(await measure(database, backend)));
  } finally {
    await backend.close();
  }
}
console.log(
  `target: round trip ≤ ${target.factor} × direct + ${target.plusMs} ms; GET looks every ${getEveryMs} ms`,
);
console.log(
  '| database | project | direct in a copy | POST → verdict in GET | → hypothesis.finished (SSE) | → iteration.finished (SSE) | GET / direct | GET − direct | target | POST | load |',
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
for (const row of rows) console.log(row);
console.log(
  `load at the end ${loadavg()}; total ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
