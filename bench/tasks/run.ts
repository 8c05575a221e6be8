/**
 * Task-loop figures (issue #4):
 *  1. event latency from the loop's emit (persist + publish) to an SSE client over HTTP, p50/p95,
 *     with N concurrent viewers; target p95 < 100 ms;
 *  2. time from creating a task from an archive of a small pytest project to its baseline result,
 *     split into intake (archive → bare repository), worktree, and baseline (the sandboxed run),
 *     next to the same test command run directly on the host (the ratio is the loop's overhead).
 * Run with `npm run bench:tasks [-- --events 300 --viewers 10]`; scratch goes to bench/.work/tasks/.
 */
import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { createEventStream } from './sse-client';
import { serveFetch } from './http-adapter';
import { handleTaskEvents } from '../../server/api/rest/events';
import { cliActor, personOf } from '../../server/auth/actor';
import { createRuntime, type ServerRuntime } from '../../server/runtime';
import { PrismaTaskStore } from '../../server/tasks/prisma-task-store';
import { tokenIn } from '../../server/test-support/actors';
import { copyProject, fixtureProject, packProject } from '../../server/test-support/projects';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '300' },
    viewers: { type: 'string', default: '10' },
    runs: { type: 'string', default: '3' },
  },
});
const eventCount = Math.max(10, Number(values.events));
const viewers = Math.max(1, Number(values.viewers));
const runs = Math.max(1, Number(values.runs));
const work = new URL('../.work/tasks/', import.meta.url).pathname;

const percentile = (samples: readonly number[], p: number): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const median = (samples: readonly number[]): number => percentile(samples, 50);
const ms = (n: number): string => `${n.toFixed(1)} ms`;

async function eventLatency(runtime: ServerRuntime): Promise<void> {
  // The viewers are the task's owner's token, as an agent watching its own task.
  const token = await tokenIn(runtime.db, 'bench', ['agent']);
  const task = await runtime.db.task.create({
    data: {
      sourceKind: 'archive',
      archiveName: 'bench',
      testCommand: ['true'],
      ownerId: personOf(token)?.id ?? null,
    },
  });
  const store = new PrismaTaskStore(runtime.db, runtime.bus);
  const { url, server } = await serveFetch((request) =>
    handleTaskEvents(
      request,
      { runtime: { ...runtime, authenticate: () => Promise.resolve(token) } },
      { id: task.id },
    ),
  );
  const sent = new Map<number, number>();
  const latencies: number[] = [];
  const received = new Array<number>(viewers).fill(0);
  const streams = await Promise.all(
    Array.from({ length: viewers }, (_, viewer) =>
      createEventStream(`${url}/events`, (event) => {
        const started = sent.get(event.seq);
        if (started !== undefined) latencies.push(performance.now() - started);
        received[viewer] = (received[viewer] ?? 0) + 1;
      }),
    ),
  );
  for (let i = 1; i <= eventCount; i++) {
    sent.set(i, performance.now());
    await store.emit(task.id, {
      type: 'run.output',
      subject: 'bench',
      iteration: 0,
      lines: [`line ${i}`],
    });
    // A realistic pace: output batches arrive every few milliseconds, not back to back.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const deadline = Date.now() + 30_000;
  while (received.some((n) => n < eventCount) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (const stream of streams) stream.close();
  server.close();
  const complete = received.filter((n) => n === eventCount).length;
  console.log(`\n1. event latency, emit → SSE client (${eventCount} events × ${viewers} viewers)`);
  console.log(`   every viewer got every event: ${complete}/${viewers}`);
  console.log(
    `   p50 ${ms(percentile(latencies, 50))}  p95 ${ms(percentile(latencies, 95))}  max ${ms(Math.max(...latencies))}`,
  );
  console.log(`   target p95 < 100 ms: ${percentile(latencies, 95) < 100 ? 'PASS' : 'MISS'}`);
}

async function createToBaseline(runtime: ServerRuntime): Promise<void> {
  const project = fixtureProject('pytest-calc');
  const packed = await packProject(project);
  const host = await copyProject(project);
  const split = {
    create: [] as number[],
    worktree: [] as number[],
    baseline: [] as number[],
    total: [] as number[],
    direct: [] as number[],
  };
  for (let run = 0; run < runs; run++) {
    const upload = path.join(runtime.uploadDir, `bench-${run}`);
    await copyFile(packed.file, upload);
    const started = performance.now();
    const { id } = await runtime.tasks.createTask(
      {
        source: { kind: 'archive', file: upload, name: packed.name },
        testCommand: project.testCommand,
      },
      cliActor,
    );
    const created = performance.now();
    const times = new Map<string, number>();
    const unsubscribe = runtime.bus.subscribe(id, () => undefined);
    for (;;) {
      const events = await runtime.db.event.findMany({
        where: { taskId: id },
        select: { type: true, createdAt: true },
      });
      for (const e of events) if (!times.has(e.type)) times.set(e.type, e.createdAt.getTime());
      if (times.has('baseline.finished')) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const finished = performance.now();
    unsubscribe();
    await runtime.tasks.cancel(id, cliActor);
    const at = (type: string): number => times.get(type) ?? Number.NaN;
    split.create.push(created - started);
    split.worktree.push(at('workspace.ready') - at('task.preparing'));
    split.baseline.push(at('baseline.finished') - at('baseline.started'));
    split.total.push(finished - started);
    const direct = performance.now();
    await execa(project.hostTestCommand[0] ?? 'python3', project.hostTestCommand.slice(1), {
      cwd: host,
      env: { ...process.env, ...project.hostTestEnv },
      reject: false,
    });
    split.direct.push(performance.now() - direct);
  }
  await packed.cleanup();
  await rm(path.dirname(host), { recursive: true, force: true });
  console.log(`\n2. create task (archive of pytest-calc) → baseline result, median of ${runs}`);
  console.log(`   intake (upload → bare repository, in createTask): ${ms(median(split.create))}`);
  console.log(
    `   worktree (task.preparing → workspace.ready):       ${ms(median(split.worktree))}`,
  );
  console.log(
    `   baseline run in the sandbox:                       ${ms(median(split.baseline))}`,
  );
  console.log(`   total until the baseline result is stored:         ${ms(median(split.total))}`);
  console.log(`   the same tests run directly on the host:           ${ms(median(split.direct))}`);
  console.log(
    `   ratio total / direct: ${(median(split.total) / median(split.direct)).toFixed(2)}×`,
  );
}

await rm(work, { recursive: true, force: true });
await mkdir(work, { recursive: true });
const runtime = await createRuntime({
  dataDir: work,
  host: '127.0.0.1',
  port: 0,
  database: { provider: 'sqlite', file: path.join(work, 'bench.db') },
});
try {
  await eventLatency(runtime);
  await createToBaseline(runtime);
} finally {
  await runtime.close();
}
