import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskStatus } from '../../engine/loop/task-status';
import type { TaskView } from '../../tasks/task-api';
import {
  createToken,
  ensureBuilt,
  startServer,
  type ServerHandle,
} from '../../test-support/app-server';
import { eventually, processesMatching } from '../../test-support/processes';
import {
  editOf,
  fixtureProject,
  packProject,
  readTree,
  slowHypothesis,
} from '../../test-support/projects';
import {
  api,
  createArchiveTask,
  describeResponse,
  getTask,
  hasStatus,
  isRecord,
  readTaskEvents,
  review,
  submitHypotheses,
  summarizeTask,
  waitForTask,
  type ApiClient,
} from '../../test-support/rest-client';

/**
 * What happens to a task besides the happy path: a rejected diff, a cancel in the middle of a run,
 * and a server killed with SIGKILL in the middle of an iteration. The built app under `next start`,
 * real pytest runs in real shadows.
 */

const minutes = (n: number): number => n * 60_000;
const project = fixtureProject('pytest-calc');
/** Seconds the slow hypothesis sleeps: long enough to act while it runs. */
const SLOW_SECONDS = 60;
/**
 * The same for a run the server is killed in: a resumed iteration runs the hypothesis again, and
 * the test waits for all of that second sleep, so it is only as long as the kill needs.
 */
const SLOW_SECONDS_BEFORE_KILL = 15;
/** The one timing bound: cancel → status cancelled and no process of the run left. */
const CANCEL_BOUND_MS = 10_000;

let dataDir: string;
let server: ServerHandle;
let agentToken: string;
let reviewerToken: string;
let agent: ApiClient;
let reviewer: ApiClient;
const scratch: string[] = [];
const markers: string[] = [];

function connect(handle: ServerHandle): void {
  server = handle;
  agent = api(handle.url, agentToken);
  reviewer = api(handle.url, reviewerToken);
}

beforeAll(async () => {
  await ensureBuilt();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-lifecycle-'));
  agentToken = await createToken(dataDir, ['agent'], { name: 'lifecycle-agent' });
  reviewerToken = await createToken(dataDir, ['agent', 'reviewer'], {
    name: 'lifecycle-reviewer',
  });
  connect(await startServer({ dataDir }));
}, minutes(25));

afterAll(async () => {
  await server.kill().catch(() => server.kill9());
  // Runs orphaned by the SIGKILLed server still sleep; they are this suite's own processes.
  for (const marker of markers) {
    for (const info of await processesMatching(`sleep ${marker}`)) {
      try {
        process.kill(info.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  for (const dir of [...scratch, dataDir as string | undefined]) {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }
}, minutes(2));

const worktreeOf = (taskId: string): string => path.join(dataDir, 'worktrees', taskId);

/** A pytest task with one hypothesis per iteration, waiting for it after a red baseline. */
async function taskAwaitingHypotheses(maxIterations: number): Promise<string> {
  const archive = await packProject(project);
  scratch.push(archive.dir);
  const id = await createArchiveTask(agent, archive, {
    testCommand: project.testCommand,
    maxIterations,
    hypothesesPerIteration: 1,
  });
  const waiting = await waitForTask(agent, id, hasStatus('awaiting_hypotheses'), minutes(5));
  expect(waiting.baseline?.failed).toBeGreaterThanOrEqual(1);
  return id;
}

/** Submits the slow hypothesis and returns once its `sleep` is running. */
async function startSlowRun(id: string, seconds = SLOW_SECONDS): Promise<string> {
  const { hypothesis, marker } = slowHypothesis(project, seconds);
  markers.push(marker);
  const submitted = await submitHypotheses(agent, id, [hypothesis]);
  expect(submitted.status, describeResponse(submitted)).toBe(202);
  await waitForTask(agent, id, hasStatus('iterating'), minutes(2));
  await eventually(
    `the slow hypothesis' sleep ${marker}`,
    async () => ((await processesMatching(`sleep ${marker}`)).length > 0 ? true : undefined),
    minutes(2),
  );
  return marker;
}

async function expectWorktreeRestored(taskId: string): Promise<void> {
  const original = await readTree(project.dir);
  await eventually(
    'the worktree to hold the original files',
    async () => {
      const now = await readTree(worktreeOf(taskId));
      expect(now).toEqual(original);
      return true;
    },
    30_000,
  );
}

async function directoriesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  });
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

describe('task lifecycle', () => {
  it(
    'reject rolls the worktree back to the original files',
    async () => {
      const id = await taskAwaitingHypotheses(1);
      expect(await readTree(worktreeOf(id))).toEqual(await readTree(project.dir));

      const { right } = project.hypotheses;
      const submitted = await submitHypotheses(agent, id, [right]);
      expect(submitted.status, describeResponse(submitted)).toBe(202);
      const ready = await waitForTask(agent, id, hasStatus('awaiting_review'), minutes(10));
      expect(ready.iterations.find((i) => i.index === 1)?.winner).toBe(right.name);
      // The winner was committed into the worktree…
      const fixed = await readTree(worktreeOf(id));
      expect(fixed.get(project.buggyFile)).toBe(editOf(right, project.buggyFile));

      const rejected = await review(reviewer, id, 'reject', ready.diffSha256!);
      expect(rejected.status, describeResponse(rejected)).toBe(200);
      expect((await getTask(agent, id)).status).toBe('rejected');
      // …and the rejection takes it out again.
      await expectWorktreeRestored(id);
    },
    minutes(20),
  );

  it(
    `cancel stops a running hypothesis within ${CANCEL_BOUND_MS / 1000} s and leaves no process`,
    async () => {
      const id = await taskAwaitingHypotheses(1);
      const marker = await startSlowRun(id);

      const started = Date.now();
      const cancelled = await agent.post(`/api/v1/tasks/${id}/cancel`);
      expect(cancelled.status, describeResponse(cancelled)).toBeLessThan(300);
      const view = await waitForTask(agent, id, hasStatus('cancelled'), CANCEL_BOUND_MS, {
        intervalMs: 200,
      });
      const left = CANCEL_BOUND_MS - (Date.now() - started);
      await eventually(
        'no sleep or pytest of the run left',
        async () => {
          const leftovers = [
            ...(await processesMatching(`sleep ${marker}`)),
            ...(await server.processTree()).filter((p) => /\bsleep\b|pytest/.test(p.args)),
          ];
          if (leftovers.length === 0) return true;
          throw new Error(leftovers.map((p) => `${p.pid} ${p.args}`).join('; '));
        },
        Math.max(left, 0),
        100,
      );
      expect(Date.now() - started, summarizeTask(view)).toBeLessThanOrEqual(CANCEL_BOUND_MS);

      // No timing bound on the cleanup that follows.
      await expectWorktreeRestored(id);
      await eventually(
        'no shadow left',
        async () =>
          (await directoriesUnder(path.join(dataDir, 'shadows'))).length === 0 || undefined,
        minutes(1),
      );
    },
    minutes(20),
  );

  it(
    'a server killed with SIGKILL mid-iteration restarts into a consistent task and event log',
    async () => {
      const id = await taskAwaitingHypotheses(2);
      await startSlowRun(id, SLOW_SECONDS_BEFORE_KILL);

      await server.kill9();
      connect(await startServer({ dataDir }));

      // Either the task resumes and finishes, or it ends interrupted. If it resumes into a fresh
      // wait for hypotheses, the agent sends the right fix, as it would after any failed iteration.
      const busy: ReadonlySet<TaskStatus> = new Set([
        'queued',
        'preparing',
        'baseline',
        'iterating',
      ]);
      const notBusy = (task: TaskView): boolean => !busy.has(task.status);
      let task = await waitForTask(agent, id, notBusy, minutes(10));
      if (task.status === 'awaiting_hypotheses') {
        const { right } = project.hypotheses;
        const submitted = await submitHypotheses(agent, id, [right]);
        expect(submitted.status, describeResponse(submitted)).toBe(202);
        task = await waitForTask(
          agent,
          id,
          (t) => notBusy(t) && t.status !== 'awaiting_hypotheses',
          minutes(10),
        );
      }
      expect(['awaiting_review', 'interrupted'], summarizeTask(task)).toContain(task.status);
      if (task.status === 'interrupted') {
        await expectWorktreeRestored(id);
      } else {
        const diff = await agent.get(`/api/v1/tasks/${id}/diff`);
        expect(diff.status, describeResponse(diff)).toBe(200);
        expect(isRecord(diff.body) ? diff.body.sha256 : undefined).toBe(task.diffSha256);
      }

      // The event log, read over SSE from the start: ids 1..N, consecutive, each once.
      const last = (await getTask(agent, id)).lastEventId;
      expect(last).toBeGreaterThan(0);
      const events = await readTaskEvents(agent, id, {
        until: (read) => read.length >= last,
        timeoutMs: minutes(1),
      });
      expect(events.map((event) => event.id)).toEqual(
        Array.from({ length: last }, (_, index) => index + 1),
      );
      for (const event of events) {
        const data = event.data as { seq?: unknown; type?: unknown; createdAt?: unknown };
        expect(data.seq, event.raw.data).toBe(event.id);
        expect(data.type, event.raw.data).toBe(event.event);
        expect(typeof data.createdAt, event.raw.data).toBe('string');
      }

      // Resuming from the middle with Last-Event-ID gives exactly the rest.
      const middle = Math.floor(last / 2);
      const rest = await readTaskEvents(agent, id, {
        lastEventId: middle,
        until: (read) => read.length >= last - middle,
        timeoutMs: minutes(1),
      });
      expect(rest.map((event) => event.id)).toEqual(events.slice(middle).map((event) => event.id));
      expect(rest.map((event) => event.event)).toEqual(
        events.slice(middle).map((event) => event.event),
      );

      // Once the task has settled, no shadow is left on disk.
      await eventually(
        'no shadow left',
        async () => {
          const left = await directoriesUnder(path.join(dataDir, 'shadows'));
          if (left.length === 0) return true;
          throw new Error(`left under shadows/: ${left.join(', ')}`);
        },
        minutes(1),
      );
    },
    minutes(30),
  );
});
