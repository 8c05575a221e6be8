import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createToken,
  ensureBuilt,
  startServer,
  type ServerHandle,
} from '../../test-support/app-server';
import {
  createPostgresDatabase,
  postgresAvailable,
  type ScratchDatabase,
} from '../../test-support/scratch-databases';
import {
  copyProject,
  editOf,
  fixtureProject,
  packProject,
  projectNames,
  readTree,
} from '../../test-support/projects';
import {
  api,
  createArchiveTask,
  describeResponse,
  errorCode,
  getTask,
  hasStatus,
  isRecord,
  postArchiveTask,
  review,
  submitHypotheses,
  waitForTask,
  type ApiClient,
} from '../../test-support/rest-client';

/**
 * The REST contract end to end, as an agent and a reviewer use it: the built app under
 * `next start`, tokens from the CLI, real pytest and cargo runs in real shadows.
 */

const minutes = (n: number): number => n * 60_000;
const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

// SQLite always (the default: a file in the data directory); PostgreSQL too when one answers.
const databases = postgresAvailable ? (['sqlite', 'postgresql'] as const) : (['sqlite'] as const);

describe.each(databases)('REST API on %s', (database) => {
  let dataDir: string;
  let scratchDb: ScratchDatabase | undefined;
  let server: ServerHandle | undefined;
  let agent: ApiClient;
  let reviewer: ApiClient;
  let anonymous: ApiClient;
  const scratch: string[] = [];

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-flow-'));
    const env: Record<string, string> = {};
    if (database === 'postgresql') {
      scratchDb = await createPostgresDatabase();
      if (scratchDb.config.provider === 'postgresql') env.DATABASE_URL = scratchDb.config.url;
    }
    // Tokens first: the CLI migrates the fresh database before the server opens it.
    const agentToken = await createToken(dataDir, ['agent'], { name: 'flow-agent', env });
    const reviewerToken = await createToken(dataDir, ['agent', 'reviewer'], {
      name: 'flow-reviewer',
      env,
    });
    server = await startServer({ dataDir, env });
    agent = api(server.url, agentToken);
    reviewer = api(server.url, reviewerToken);
    anonymous = api(server.url);
  }, minutes(25));

  afterAll(async () => {
    await server?.kill().catch(() => server?.kill9());
    await scratchDb?.drop();
    for (const dir of [...scratch, dataDir as string | undefined]) {
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    }
  }, minutes(2));

  describe.each(projectNames)('a task on %s, from upload to approved patch', (name) => {
    const project = fixtureProject(name);
    const { right, wrong, broken } = project.hypotheses;

    it(
      'ranks the right fix first, binds approval to the diff hash, and serves a patch that applies',
      async () => {
        // 1. Create the task from an uploaded archive (multipart).
        const archive = await packProject(project);
        scratch.push(archive.dir);
        const id = await createArchiveTask(agent, archive, {
          testCommand: project.testCommand,
          maxIterations: 2,
          hypothesesPerIteration: 3,
        });

        // 2. The baseline is red and the first iteration waits for hypotheses.
        const waiting = await waitForTask(agent, id, hasStatus('awaiting_hypotheses'), minutes(5));
        expect(waiting.id).toBe(id);
        expect(waiting.baseline, 'baseline recorded').not.toBeNull();
        expect(waiting.baseline!.failed).toBeGreaterThanOrEqual(1);
        expect(waiting.diffSha256).toBeNull();

        // 3. Three hypotheses from the agent; the right one last, so the order cannot pick it.
        const submitted = await submitHypotheses(agent, id, [wrong, broken, right]);
        expect(submitted.status, describeResponse(submitted)).toBe(202);
        const accepted = isRecord(submitted.body) ? submitted.body.accepted : undefined;
        expect(Array.isArray(accepted) ? [...(accepted as unknown[])].sort() : accepted).toEqual(
          [wrong.name, broken.name, right.name].sort(),
        );

        // 4. The right fix wins iteration 1: tests green, the task awaits review.
        const ready = await waitForTask(agent, id, hasStatus('awaiting_review'), minutes(10));
        const iteration = ready.iterations.find((candidate) => candidate.index === 1);
        expect(iteration, JSON.stringify(ready.iterations)).toBeDefined();
        expect(iteration!.winner).toBe(right.name);
        const byName = new Map(iteration!.hypotheses.map((h) => [h.name, h]));
        expect([...byName.keys()].sort()).toEqual([wrong.name, broken.name, right.name].sort());
        expect(iteration!.hypotheses.map((h) => h.rank).sort()).toEqual([1, 2, 3]);
        const rightRun = byName.get(right.name)!;
        expect(rightRun.rank).toBe(1);
        expect(rightRun.failed).toBe(0);
        expect(rightRun.passed).toBe(project.tests.total);
        expect(rightRun.exitCode).toBe(0);
        expect(byName.get(wrong.name)!.failed).toBeGreaterThanOrEqual(1);
        expect(byName.get(wrong.name)!.rank).toBe(2);
        expect(byName.get(broken.name)!.rank).toBe(3);
        expect(byName.get(broken.name)!.passed).toBe(0);
        expect(byName.get(broken.name)!.exitCode).not.toBe(0);
        expect(ready.pendingHypotheses).toEqual([]);
        expect(ready.diffSha256).toMatch(/^[0-9a-f]{64}$/);
        const hash = ready.diffSha256!;

        // 5. The diff under review is the winner's change, and its hash is the hash of its bytes.
        const diff = await agent.get(`/api/v1/tasks/${id}/diff`);
        expect(diff.status, describeResponse(diff)).toBe(200);
        const diffBody = diff.body as { diff: string; sha256: string; flags: unknown };
        expect(diffBody.sha256).toBe(hash);
        expect(sha256(Buffer.from(diffBody.diff, 'utf8'))).toBe(hash);
        expect(diffBody.diff).toContain(project.buggyFile);
        expect(isRecord(diffBody.flags), describeResponse(diff)).toBe(true);

        // 6. An agent token cannot approve.
        const byAgent = await review(agent, id, 'approve', hash);
        expect(byAgent.status, describeResponse(byAgent)).toBe(403);

        // 7. A reviewer with the hash of another diff: 409 STALE_DIFF, nothing changes.
        const otherHash = hash.slice(0, -1) + (hash.endsWith('0') ? '1' : '0');
        const stale = await review(reviewer, id, 'approve', otherHash);
        expect(stale.status, describeResponse(stale)).toBe(409);
        expect(errorCode(stale)).toBe('STALE_DIFF');
        const still = await getTask(reviewer, id);
        expect(still.status).toBe('awaiting_review');
        expect(still.approvedDiffSha256).toBeNull();
        expect(still.diffSha256).toBe(hash);

        // 8. The right hash approves.
        const approved = await review(reviewer, id, 'approve', hash);
        expect(approved.status, describeResponse(approved)).toBe(200);
        const done = await getTask(reviewer, id);
        expect(done.status).toBe('approved');
        expect(done.approvedDiffSha256).toBe(hash);

        // 9. The patch download is the stored bytes, with their hash in a header.
        const patch = await agent.bytes(`/api/v1/tasks/${id}/patch`);
        expect(patch.status, patch.body.toString('utf8').slice(0, 2000)).toBe(200);
        expect(patch.headers.get('x-content-sha256')).toBe(sha256(patch.body));
        expect(sha256(patch.body)).toBe(hash);

        // 10. It applies to a fresh copy of the original project, whose tests then pass.
        const copy = await copyProject(project);
        scratch.push(path.dirname(copy));
        const patchFile = path.join(path.dirname(copy), 'approved.patch');
        await writeFile(patchFile, patch.body);
        const gitEnv = { GIT_CEILING_DIRECTORIES: path.dirname(copy) };
        const check = await execa('git', ['apply', '--check', patchFile], {
          cwd: copy,
          env: gitEnv,
          reject: false,
          all: true,
        });
        expect(check.exitCode, check.all).toBe(0);
        await execa('git', ['apply', patchFile], { cwd: copy, env: gitEnv });
        const original = await readTree(project.dir);
        original.set(project.buggyFile, editOf(right, project.buggyFile));
        expect(await readTree(copy)).toEqual(original);
        const [command = '', ...args] = project.hostTestCommand;
        const tests = await execa(command, args, {
          cwd: copy,
          env: { ...project.hostTestEnv, CARGO_TERM_COLOR: 'never' },
          reject: false,
          all: true,
        });
        expect(tests.exitCode, tests.all).toBe(0);
      },
      minutes(20),
    );
  });

  describe('refusals', () => {
    it('refuses a Git URL on a private address with 422 and an error code', async () => {
      const response = await agent.post('/api/v1/tasks', {
        gitUrl: 'https://127.0.0.1/x.git',
        testCommand: ['python3', '-m', 'pytest', '-q'],
      });
      expect(response.status, describeResponse(response)).toBe(422);
      expect(errorCode(response), describeResponse(response)).toBe('URL_PRIVATE_ADDRESS');
    });

    it('answers 401 without a token or with an unknown one', async () => {
      const unknown = anonymous.as(`sbx_${'A'.repeat(43)}`);
      const attempts = [
        await anonymous.post('/api/v1/tasks', {
          gitUrl: 'https://example.com/x.git',
          testCommand: ['python3', '-m', 'pytest', '-q'],
        }),
        await anonymous.get('/api/v1/tasks/no-such-task'),
        await anonymous.get('/api/v1/tasks/no-such-task/diff'),
        await anonymous.post('/api/v1/tasks/no-such-task/review', {
          verdict: 'approve',
          sha256: '0'.repeat(64),
        }),
        await unknown.get('/api/v1/tasks/no-such-task'),
        await agent.get('/api/v1/tasks/no-such-task', {
          headers: { authorization: 'Basic dXNlcjpwYXNz' },
        }),
      ];
      for (const response of attempts) {
        expect(response.status, describeResponse(response)).toBe(401);
        expect(errorCode(response), describeResponse(response)).toBe('UNAUTHENTICATED');
      }
      const events = await fetch(`${anonymous.url}/api/v1/tasks/no-such-task/events`, {
        headers: { accept: 'text/event-stream' },
      });
      expect(events.status).toBe(401);
      await events.body?.cancel();
    });

    it('answers 400, not 500, to malformed task bodies', async () => {
      const pytest = ['python3', '-m', 'pytest', '-q'];
      const attempts = [
        await agent.post('/api/v1/tasks', undefined, {
          body: '{"gitUrl": ',
          headers: { 'content-type': 'application/json' },
        }),
        await agent.post('/api/v1/tasks', []),
        await agent.post('/api/v1/tasks', {}),
        await agent.post('/api/v1/tasks', { gitUrl: 5, testCommand: pytest }),
        await agent.post('/api/v1/tasks', {
          gitUrl: 'https://example.com/x.git',
          testCommand: 'python3 -m pytest -q',
        }),
        await agent.post('/api/v1/tasks', {
          gitUrl: 'https://example.com/x.git',
          testCommand: pytest,
          maxIterations: 'three',
        }),
      ];
      for (const response of attempts) {
        expect(response.status, describeResponse(response)).toBe(400);
        expect(errorCode(response), describeResponse(response)).toMatch(/^[A-Z][A-Z_]+$/);
      }
    });

    it('answers 400 to an upload without an archive or with a command that is not allowed', async () => {
      const project = fixtureProject('pytest-calc');
      const archive = await packProject(project);
      scratch.push(archive.dir);
      const attempts = [
        await agent.multipart(
          '/api/v1/tasks',
          { testCommand: JSON.stringify(project.testCommand) },
          {},
        ),
        await agent.multipart('/api/v1/tasks', { testCommand: 'python3 -m pytest' }, { archive }),
        await postArchiveTask(agent, archive, { testCommand: ['rm', '-rf', '/'] }),
      ];
      for (const response of attempts) {
        expect(response.status, describeResponse(response)).toBe(400);
        expect(errorCode(response), describeResponse(response)).toMatch(/^[A-Z][A-Z_]+$/);
      }
    });
  });
});
