import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Actor } from '../../auth';
import { fakeToken, fakeUser } from '../../test-support/actors';
import { readRunFile, writeRunFile } from '../run/run-file';
import { newRunFile, type AttemptOutcome, type EvalAttemptPort } from '../run/run-set';
import { createRunFiles, evalRunFiles, readStoredRun, type EvalRunMeta } from './eval-run-files';
import type * as EvalRunFiles from './eval-run-files';
import {
  EvalRunService,
  type AttemptPortOptions,
  type EvalRunServiceDeps,
} from './eval-run-service';
import { parseEvalSet } from '../eval-instance';

/** While `until` is set, a stored run read waits for it after reading (to end a run mid-read). */
const slowReads = vi.hoisted(() => {
  const state = {
    until: null as Promise<void> | null,
    waiting: 0,
    async reached(count: number): Promise<void> {
      while (state.waiting < count) await new Promise((resolve) => setTimeout(resolve, 5));
    },
  };
  return state;
});
vi.mock('./eval-run-files', async (importOriginal) => {
  const actual = await importOriginal<typeof EvalRunFiles>();
  return {
    ...actual,
    readStoredRun: async (...args: Parameters<typeof actual.readStoredRun>) => {
      const stored = await actual.readStoredRun(...args);
      const until = slowReads.until;
      if (until !== null) {
        slowReads.waiting += 1;
        await until;
      }
      return stored;
    },
  };
});

const line = (id: string, repo = 'https://git.example.com/calc.git') =>
  JSON.stringify({
    instance_id: id,
    repo,
    base_commit: 'a'.repeat(40),
    patch: '',
    test_patch: '',
    problem_statement: `fix ${id}`,
    FAIL_TO_PASS: ['t::f'],
    PASS_TO_PASS: [],
    test_command: ['python3', '-m', 'pytest'],
  });
const twoInstances = `${line('calc__mean')}\n${line('calc__sub')}\n`;

const outcome = (resolved: boolean): AttemptOutcome => ({
  resolved,
  tokens: 1000,
  costUsd: 0.0026,
  durationMs: 50,
  iterations: 1,
  why: resolved ? 'resolved' : 'FAIL_TO_PASS still failing: t::f',
});

/** Attempts of calc__mean resolve, the others do not; every call is logged. */
function fakeAttempts(options: { gate?: Promise<void>; fault?: Error } = {}) {
  const started: string[] = [];
  const finished: string[] = [];
  const asked: AttemptPortOptions[] = [];
  const factory = (o: AttemptPortOptions): EvalAttemptPort => {
    asked.push(o);
    return {
      start: (i, attempt) => {
        const taskId = `task-${i.instance_id}-${attempt}`;
        started.push(taskId);
        return Promise.resolve(taskId);
      },
      finish: async (i, taskId) => {
        // As the runtime's port does: waiting for a task ends when the server stops.
        const stopped = new Promise<void>((resolve) => {
          o.signal.addEventListener('abort', () => resolve(), { once: true });
        });
        await Promise.race([options.gate, stopped]);
        o.signal.throwIfAborted();
        if (options.fault !== undefined) throw options.fault;
        finished.push(taskId);
        return outcome(i.instance_id === 'calc__mean');
      },
    };
  };
  return { factory, started, finished, asked };
}

let dataDir: string;
const reviewer = fakeUser('rita', 'reviewer');

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-eval-service-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function service(
  attempts = fakeAttempts(),
  deps: Partial<EvalRunServiceDeps> = {},
): EvalRunService {
  return new EvalRunService({
    dataDir,
    model: 'fixer-1',
    attempts: attempts.factory,
    loadOwner: (id) => Promise.resolve(id === 'user-rita' ? reviewer : null),
    ...deps,
  });
}

const start = { set: twoInstances, setName: 'calc.jsonl', k: 2, parallel: 2, maxIterations: 1 };

describe('EvalRunService', () => {
  it('shows a run that ends while its file is being read as running, never as stopped', async () => {
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const evals = service(fakeAttempts({ gate }));
    const { runId } = await evals.start(start, reviewer);
    // Both reads get the file as it is now (no attempt done), then wait while the run ends.
    let release = (): void => undefined;
    slowReads.until = new Promise<void>((resolve) => {
      release = resolve;
    });
    const listed = evals.list(reviewer);
    const detail = evals.get(runId, reviewer);
    await slowReads.reached(2);
    open();
    await evals.settled(runId);
    release();
    expect((await listed).runs.map((run) => run.state)).toEqual(['running']);
    expect((await detail).progress.state).toBe('running');
    // Read again, the run is done.
    slowReads.until = null;
    expect((await evals.get(runId, reviewer)).progress.state).toBe('done');
  });

  it('starts a run in the background and records it under the data directory', async () => {
    const attempts = fakeAttempts();
    const evals = service(attempts);
    const progress = await evals.start(start, reviewer);
    expect(progress).toMatchObject({
      state: 'running',
      owner: 'rita',
      model: 'fixer-1',
      instances: 2,
      attempts: 4,
      attemptsDone: 0,
    });
    await evals.settled(progress.runId);
    expect(attempts.started).toHaveLength(4);
    expect(attempts.asked[0]).toMatchObject({ runId: progress.runId, actor: reviewer });

    const list = await evals.list(reviewer);
    expect(list.model).toBe('fixer-1');
    expect(list.runs).toEqual([
      expect.objectContaining({
        runId: progress.runId,
        state: 'done',
        set: 'calc.jsonl',
        instancesDone: 2,
        attemptsDone: 4,
        resolved: 2,
        tokens: 4000,
      }),
    ]);
    const file = await readRunFile(evalRunFiles(dataDir, progress.runId).run);
    expect(file?.summary).toMatchObject({ attempts: 4, resolved: 2, 'pass@1': 0.5 });

    const detail = await evals.get(progress.runId, reviewer);
    expect(detail.rows.map((r) => [r.instanceId, r.c, r.n])).toEqual([
      ['calc__mean', 2, 2],
      ['calc__sub', 0, 2],
    ]);
    expect(detail.reportHtml).toContain('<svg');
  });

  it.each<[string, Actor]>([
    ['an author', fakeUser('ann', 'author')],
    ["an agent's token", fakeToken('bot', ['agent'])],
    ["a reviewer's token", fakeToken('rita', ['agent', 'reviewer'])],
  ])('refuses %s with FORBIDDEN and writes nothing', async (_who, actor) => {
    const attempts = fakeAttempts();
    const evals = service(attempts);
    await expect(evals.start(start, actor)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(evals.list(actor)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(attempts.started).toEqual([]);
    await expect(readdir(dataDir)).resolves.toEqual([]);
  });

  it('refuses to start when the server has no LLM, and a model other than its own', async () => {
    await expect(service(fakeAttempts(), { model: null }).start(start, reviewer)).rejects.toThrow(
      /^no LLM is configured on this server/,
    );
    const other = service().start({ ...start, model: 'other' }, reviewer);
    await expect(other).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(other).rejects.toThrow(/^model: this server runs fixer-1/);
    await expect(readdir(dataDir)).resolves.toEqual([]);
  });

  it('names the bad line of a set, and refuses an empty or oversized one', async () => {
    const evals = service();
    const bad = `${line('a')}\n{"instance_id": "b", \n`;
    await expect(evals.start({ ...start, set: bad }, reviewer)).rejects.toThrow(
      /^calc\.jsonl, line 2 is not JSON/,
    );
    const noCommit = line('c').replace('a'.repeat(40), 'main');
    await expect(evals.start({ ...start, set: noCommit }, reviewer)).rejects.toThrow(
      /^calc\.jsonl, line 1: base_commit is not a 40-hex commit/,
    );
    await expect(evals.start({ ...start, set: '\n\n' }, reviewer)).rejects.toThrow(
      'calc.jsonl has no instance',
    );
    const huge = `${line('d')}\n${' '.repeat(5 * 1024 * 1024)}`;
    await expect(evals.start({ ...start, set: huge }, reviewer)).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
    await expect(readdir(dataDir)).resolves.toEqual([]);
  });

  it("refuses a set whose repo is a local path on the server (it would read the server's disk)", async () => {
    const roots = path.join(dataDir, 'roots');
    const allowed = path.join(roots, 'allowed', 'calc');
    await mkdir(allowed, { recursive: true });
    const escape = path.join(roots, 'allowed', 'escape');
    await symlink(dataDir, escape);
    const setOf = (repo: string) => ({ ...start, set: line('x', repo) });
    const bare = service(fakeAttempts());
    await expect(bare.start(setOf(allowed), reviewer)).rejects.toThrow(
      /^instance x: repo must be a Git URL on the server/,
    );
    const rooted = service(fakeAttempts(), { localRepoRoots: [path.join(roots, 'allowed')] });
    await expect(rooted.start(setOf(dataDir), reviewer)).rejects.toThrow(/outside the directories/);
    await expect(rooted.start(setOf(escape), reviewer)).rejects.toThrow(/outside the directories/);
    await expect(rooted.start(setOf(`${allowed}/../../x`), reviewer)).rejects.toThrow(
      /does not exist|outside/,
    );
    await expect(rooted.start(setOf('calc'), reviewer)).rejects.toThrow(/absolute path/);
    const run = await rooted.start(setOf(allowed), reviewer);
    await rooted.settled(run.runId);
  });

  it('resumes an unfinished run at start, awaiting a recorded task and never starting it again', async () => {
    const instances = parseEvalSet(twoInstances);
    const runId = 'eval-0123456789ab';
    const files = evalRunFiles(dataDir, runId);
    const run = newRunFile({
      runId,
      set: 'calc.jsonl',
      fixer: 'llm',
      model: 'fixer-1',
      k: 1,
      maxIterations: 1,
      startedAt: '2026-12-01T00:00:00.000Z',
      instances,
    });
    const meta: EvalRunMeta = {
      ownerId: 'user-rita',
      owner: 'rita',
      parallel: 1,
      testCommand: null,
      timeoutSecs: 60,
      error: 'the disk was full',
    };
    await createRunFiles(files, { run, set: twoInstances, meta });
    // The server stopped with calc__mean's task made and calc__sub not started.
    const [mean] = run.instances;
    mean?.attempts.push({
      attempt: 0,
      state: 'running',
      taskId: 'task-recorded',
      ...outcome(false),
      why: 'running',
    });
    await writeRunFile(files.run, run);

    const attempts = fakeAttempts();
    const evals = service(attempts);
    expect(await evals.resumeUnfinished()).toEqual([runId]);
    await evals.settled(runId);
    expect(attempts.started).toEqual(['task-calc__sub-0']);
    expect(attempts.finished).toEqual(['task-recorded', 'task-calc__sub-0']);
    const stored = await readStoredRun(dataDir, runId);
    expect(stored?.meta.error).toBeNull();
    expect(stored?.run.summary).toMatchObject({ attempts: 2, resolved: 1 });
    // Done: a second start leaves it alone.
    expect(await service(attempts).resumeUnfinished()).toEqual([]);
  });

  it('leaves a run stopped by close() to resume, and records a fault without losing tasks', async () => {
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const first = fakeAttempts({ gate });
    const evals = service(first);
    const { runId } = await evals.start({ ...start, k: 1 }, reviewer);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await evals.close();
    open();
    expect(first.finished).toEqual([]);
    const stopped = await readStoredRun(dataDir, runId);
    expect(stopped?.meta.error).toBeNull();
    expect(stopped?.run.instances.flatMap((i) => i.attempts.map((a) => a.state))).toEqual([
      'running',
      'running',
    ]);
    await expect(evals.start(start, reviewer)).rejects.toMatchObject({ code: 'INVALID_STATE' });

    const faulty = fakeAttempts({ fault: new Error('database is locked') });
    const next = service(faulty);
    expect(await next.resumeUnfinished()).toEqual([runId]);
    await next.settled(runId);
    expect(faulty.started).toEqual([]);
    expect((await next.list(reviewer)).runs[0]).toMatchObject({
      state: 'stopped',
      error: 'database is locked',
    });

    const last = fakeAttempts();
    const again = service(last, { loadOwner: () => Promise.resolve(null) });
    expect(await again.resumeUnfinished()).toEqual([]);
    expect((await again.get(runId, reviewer)).progress.error).toMatch(/rita.*gone or disabled/);
  });

  it('answers NOT_FOUND for an unknown run and for anything that is not a run id', async () => {
    const evals = service();
    await expect(evals.get('eval-000000000000', reviewer)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(evals.get('../../etc', reviewer)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
