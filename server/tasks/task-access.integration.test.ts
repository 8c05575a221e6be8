import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken, type Actor } from '../auth';
import { connectInMemory, call, errorOf } from '../api/mcp/test-support/clients';
import { mcpServicesOf } from '../api/mcp/services';
import { handleCancelTask, handleGetTask, handleListTasks, handleReopenTask } from '../api/rest';
import { createContextInner } from '../api/trpc/context';
import { createCaller } from '../api/trpc/root';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import { tokenIn, userIn } from '../test-support/actors';

/**
 * Who sees and does what, on a real runtime and database, through every transport: two people's
 * tokens cannot see (404) or cancel each other's tasks over REST, tRPC or MCP; a token never
 * exceeds its person; an approved task changes only through a reviewer's reopen; and with the
 * second-reviewer rule nobody approves what they submitted.
 */
describe('task ownership and review rules', () => {
  let scratch: ScratchRuntime;
  let aliceToken: string;
  let bobToken: string;
  let alice: Actor;
  let bob: Actor;
  let bobsTask: string;

  const bearer = (token: string, method: 'GET' | 'POST', url: string) =>
    new Request(`http://127.0.0.1/api/v1/tasks${url}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
    });
  const deps = () => ({ runtime: scratch.runtime });
  const rest = (
    // All three are RestHandler<TaskParams>.
    handler: typeof handleGetTask,
    token: string,
    id: string,
  ) => handler(bearer(token, handler === handleGetTask ? 'GET' : 'POST', `/${id}`), deps(), { id });
  const listAs = (token: string) => handleListTasks(bearer(token, 'GET', ''), deps(), undefined);

  /** A task row as the loop leaves it: owned, under review of one stored diff. */
  async function taskUnderReview(
    owner: Actor,
    submitter: Actor,
  ): Promise<{ id: string; sha: string }> {
    const { db } = scratch.runtime;
    const bytes = Buffer.from(`diff for ${Math.random()}\n`);
    const sha = createHash('sha256').update(bytes).digest('hex');
    await db.diff.create({
      data: { sha256: sha, bytes: new Uint8Array(bytes), flags: {}, size: bytes.length },
    });
    const ownerId = owner.kind === 'cli' ? null : owner.person.id;
    const submittedById = submitter.kind === 'cli' ? null : submitter.person.id;
    const task = await db.task.create({
      data: {
        status: 'awaiting_review',
        sourceKind: 'archive',
        archiveName: 'p.tar',
        testCommand: ['true'],
        ownerId,
        diffSha256: sha,
        iterations: { create: { index: 1, status: 'done', winner: 'fix-1' } },
      },
      include: { iterations: true },
    });
    await db.hypothesis.create({
      data: {
        taskId: task.id,
        iterationId: task.iterations[0]?.id ?? null,
        name: 'fix-1',
        origin: 'external',
        verdict: 'winner',
        submittedById,
      },
    });
    return { id: task.id, sha };
  }

  beforeAll(async () => {
    scratch = await openScratchRuntime(
      'sbx-access-',
      { taskConcurrency: 1 },
      { requireSecondReviewer: true },
    );
    const { db } = scratch.runtime;
    alice = await userIn(db, 'alice', 'reviewer');
    bob = await userIn(db, 'bob', 'author');
    aliceToken = (await createApiToken(db, { user: 'alice', scopes: ['agent', 'reviewer'] })).token;
    bobToken = (await createApiToken(db, { user: 'bob', scopes: ['agent'] })).token;
    bobsTask = (await taskUnderReview(bob, bob)).id;
  }, 120_000);

  afterAll(async () => {
    await scratch.close();
  });

  it("hides a person's task from another person's token over REST (404), in the list too", async () => {
    const response = await rest(handleGetTask, aliceToken, bobsTask);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: 'NOT_FOUND', message: `no task ${bobsTask}` },
    });
    const list = (await (await listAs(aliceToken)).json()) as {
      tasks: { id: string }[];
    };
    expect(list.tasks.map((t) => t.id)).not.toContain(bobsTask);
    const own = (await (await listAs(bobToken)).json()) as {
      tasks: { id: string }[];
    };
    expect(own.tasks.map((t) => t.id)).toContain(bobsTask);
  });

  it("refuses to cancel another person's task over REST with 404, and changes nothing", async () => {
    const response = await rest(handleCancelTask, aliceToken, bobsTask);
    expect(response.status).toBe(404);
    const row = await scratch.runtime.db.task.findUniqueOrThrow({ where: { id: bobsTask } });
    expect(row.cancelRequestedBy).toBeNull();
    expect(row.status).toBe('awaiting_review');
  });

  it("hides it over tRPC (NOT_FOUND) and from the person's task list", async () => {
    const caller = createCaller(createContextInner({ runtime: scratch.runtime, actor: alice }));
    // The procedure's AppError is the cause; the HTTP adapter maps it to 404 (error-shape.ts).
    await expect(caller.tasks.get({ taskId: bobsTask })).rejects.toMatchObject({
      cause: { code: 'NOT_FOUND', message: `no task ${bobsTask}` },
    });
    expect((await caller.tasks.list()).tasks.map((t) => t.id)).not.toContain(bobsTask);
    const own = createCaller(createContextInner({ runtime: scratch.runtime, actor: bob }));
    expect((await own.tasks.get({ taskId: bobsTask })).owner).toBe('bob');
  });

  it('hides it over MCP (the tool answers NOT_FOUND)', async () => {
    const token = await tokenIn(scratch.runtime.db, 'alice', ['agent']);
    const client = await connectInMemory(mcpServicesOf(scratch.runtime), token, 'http');
    const result = await call(client, 'get_task', { taskId: bobsTask });
    expect(errorOf(result)).toMatchObject({ code: 'NOT_FOUND', message: `no task ${bobsTask}` });
    await client.close();
  });

  it("refuses a token beyond its person's role", async () => {
    await expect(
      createApiToken(scratch.runtime.db, { user: 'bob', scopes: ['agent', 'reviewer'] }),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message:
        "bob is an author: a token cannot have the 'reviewer' scope beyond its user's rights",
    });
  });

  it('an author cannot approve their own task (FORBIDDEN)', async () => {
    const { id, sha } = await taskUnderReview(bob, bob);
    await expect(
      scratch.runtime.tasks.review(id, { verdict: 'approve', sha256: sha }, bob),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('with the second-reviewer rule, nobody approves a diff they submitted the winner of', async () => {
    const { id, sha } = await taskUnderReview(alice, alice);
    await expect(
      scratch.runtime.tasks.review(id, { verdict: 'approve', sha256: sha }, alice),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message:
        'alice submitted the winning hypothesis fix-1: a second reviewer must approve it (SHADOWBOX_REQUIRE_SECOND_REVIEWER)',
    });
    const row = await scratch.runtime.db.task.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe('awaiting_review');
  });

  it('records who approved; an approved task refuses submissions (409), a reject, and an agent’s reopen', async () => {
    const { db } = scratch.runtime;
    const { id, sha } = await taskUnderReview(alice, bob);
    const approved = await scratch.runtime.tasks.review(
      id,
      { verdict: 'approve', sha256: sha },
      alice,
    );
    expect(approved.status).toBe('approved');
    expect(approved.decision).toMatchObject({ verdict: 'approve', by: 'alice', sha256: sha });
    const review = await db.review.findFirstOrThrow({ where: { taskId: id } });
    expect(review.reviewerId).toBe(alice.kind === 'cli' ? null : alice.person.id);

    const agent = await tokenIn(db, 'alice', ['agent']);
    await expect(
      scratch.runtime.tasks.submitHypotheses(
        id,
        [{ name: 'late', edits: [{ path: 'a.txt', content: 'x' }], delete: [] }],
        agent,
      ),
    ).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: `task ${id} is approved: a reviewer must reopen it before it takes hypotheses`,
    });
    await expect(
      scratch.runtime.tasks.review(id, { verdict: 'reject', sha256: sha }, alice),
    ).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: `task ${id} is approved: a reviewer must reopen it before it can be reviewed again`,
    });
    const agentReopen = await rest(
      handleReopenTask,
      (await createApiToken(db, { user: 'alice', scopes: ['agent'] })).token,
      id,
    );
    expect(agentReopen.status).toBe(403);
    expect((await db.task.findUniqueOrThrow({ where: { id } })).status).toBe('approved');

    const reopened = await scratch.runtime.tasks.reopen(id, alice);
    expect(reopened.status).toBe('awaiting_review');
    expect(reopened.approvedDiffSha256).toBeNull();
    const actions = (
      await db.auditLog.findMany({ where: { target: id }, orderBy: { createdAt: 'asc' } })
    ).map((row) => `${row.actor} ${row.action}`);
    expect(actions).toEqual(['alice task.approve', 'alice task.reopen']);
  });
});
