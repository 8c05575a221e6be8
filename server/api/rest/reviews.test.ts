import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliActor } from '../../auth/actor';
import type { TaskView } from '../../tasks/task-api';
import { tokenActors, tokens } from '../http/test-support/fake-auth';
import { handleDismissReview, handleSubmitReview } from './reviews';
import { expectError, readJson } from './test-support/assertions';
import { createFakeRuntime, type FakeRuntime } from './test-support/fake-runtime';
import { auth, jsonRequest } from './test-support/requests';

let fake: FakeRuntime;
let task: TaskView;
let sha256: string;

beforeEach(async () => {
  fake = await createFakeRuntime();
  task = fake.tasks.addTask();
  sha256 = fake.tasks.setDiff(task.id, 'diff --git a/calc.py b/calc.py\n');
});
afterEach(async () => {
  await fake.dispose();
});

function submit(
  body: unknown,
  token: string = tokens.reviewer,
  id: string = task.id,
): Promise<Response> {
  return handleSubmitReview(
    jsonRequest('POST', `/tasks/${id}/reviews`, body, auth(token)),
    fake.deps,
    { id },
  );
}

const comment = {
  path: 'calc.py',
  side: 'new',
  startLine: 2,
  endLine: 3,
  body: 'this still subtracts',
};

describe('POST /api/v1/tasks/{id}/reviews', () => {
  it('requests changes with a summary and comments: 200 with the TaskView after it', async () => {
    const response = await submit({
      verdict: 'request_changes',
      sha256,
      summary: 'not yet',
      comments: [comment],
    });
    const view = await readJson<TaskView>(response, 200);
    expect(view).toMatchObject({ id: task.id, status: 'awaiting_review', diffSha256: sha256 });
    expect(fake.reviews.submitted).toEqual([
      {
        taskId: task.id,
        input: { verdict: 'request_changes', sha256, summary: 'not yet', comments: [comment] },
        actor: tokenActors.reviewer,
      },
    ]);
    // The view is read after the review, as the caller (the fake service reads as the CLI).
    expect(fake.tasks.readers.filter((read) => read.actor !== cliActor)).toEqual([
      { method: 'getTask', taskId: task.id, actor: tokenActors.reviewer },
    ]);
    const { threads } = await fake.reviews.threads(task.id, cliActor);
    expect(threads).toMatchObject([{ path: 'calc.py', startLine: 2, endLine: 3, status: 'open' }]);
  });

  it('approves: the TaskView answered is the approved one', async () => {
    const view = await readJson<TaskView>(await submit({ verdict: 'approve', sha256 }), 200);
    expect(view).toMatchObject({ status: 'approved', approvedDiffSha256: sha256 });
  });

  it('takes a comment from an agent token', async () => {
    const response = await submit(
      { verdict: 'comment', sha256, comments: [comment] },
      tokens.agent,
    );
    await readJson<TaskView>(response, 200);
    expect(fake.reviews.submitted).toMatchObject([{ actor: tokenActors.agent }]);
    const { threads } = await fake.reviews.threads(task.id, cliActor);
    expect(threads[0]?.comments).toMatchObject([{ authorKind: 'agent' }]);
  });

  it.each(['approve', 'request_changes'])(
    'is 403 for %s from a token without the reviewer scope, and the service is not asked',
    async (verdict) => {
      const response = await submit({ verdict, sha256 }, tokens.agent);
      await expectError(
        response,
        403,
        'FORBIDDEN',
        /^this token lacks the 'reviewer' scope \(its scopes: agent\)$/,
      );
      expect(fake.reviews.submitted).toEqual([]);
      expect((await fake.tasks.getTask(task.id, cliActor)).status).toBe('awaiting_review');
    },
  );

  it('is 403 for a token with neither the agent nor the reviewer scope, before its body is read', async () => {
    const runtime = {
      ...fake.runtime,
      authenticate: () => Promise.resolve({ ...tokenActors.agent, scopes: [] }),
    };
    const response = await handleSubmitReview(
      jsonRequest('POST', `/tasks/${task.id}/reviews`, 'not json'),
      { runtime },
      { id: task.id },
    );
    await expectError(response, 403, 'FORBIDDEN', /'agent' or the 'reviewer' scope/);
  });

  it('maps the service refusing an approval with open threads to 409 OPEN_THREADS', async () => {
    const thread = fake.reviews.addThread(task.id, { diffSha256: sha256 });
    const error = await expectError(
      await submit({ verdict: 'approve', sha256 }),
      409,
      'OPEN_THREADS',
      /^1 thread on this diff is still open \(calc\.py:2 \(new\)\): resolve it before approving$/,
    );
    expect(error.details).toEqual({ open: [thread.id] });
    expect((await fake.tasks.getTask(task.id, cliActor)).status).toBe('awaiting_review');
  });

  it('is 409 STALE_DIFF for a hash that is not the current diff, and nothing is stored', async () => {
    const error = await expectError(
      await submit({ verdict: 'comment', sha256: 'b'.repeat(64), comments: [comment] }),
      409,
      'STALE_DIFF',
    );
    expect(error.details).toEqual({ reviewed: 'b'.repeat(64), current: sha256 });
    expect(fake.reviews.submitted).toEqual([]);
  });

  it('refuses a comment with a bad side, naming the field', async () => {
    const response = await submit({
      verdict: 'comment',
      sha256,
      comments: [{ ...comment, side: 'left' }],
    });
    await expectError(
      response,
      400,
      'INVALID_ARGUMENT',
      /^comments\[0\]\.side: side must be "new" \(the changed file\) or "old"$/,
    );
    expect(fake.reviews.submitted).toEqual([]);
  });

  // Refused before the service is asked: any well-formed hash will do.
  const anyHash = 'c'.repeat(64);
  it.each([
    [
      { verdict: 'reject', sha256: anyHash },
      /^verdict: verdict must be "comment", "request_changes"/,
    ],
    [{ verdict: 'approve', sha256: 'A'.repeat(64) }, /^sha256: sha256 must be 64 lowercase/],
    [{ verdict: 'approve', sha256: anyHash, force: true }, /unknown field "force"/],
    [
      { verdict: 'comment', sha256: anyHash, comments: [{ ...comment, startLine: 0 }] },
      /^comments\[0\]\.startLine: startLine must be a line number from 1$/,
    ],
    [
      { verdict: 'comment', sha256: anyHash, comments: [{ ...comment, body: '   ' }] },
      /^comments\[0\]\.body: a comment may not be empty$/,
    ],
  ])('refuses %j', async (body, message) => {
    await expectError(await submit(body), 400, 'INVALID_ARGUMENT', message);
    expect(fake.reviews.submitted).toEqual([]);
  });

  it('is 404 for an id that is not a cuid, and for an unknown task', async () => {
    await expectError(
      await submit({ verdict: 'comment', sha256 }, tokens.reviewer, '../etc'),
      404,
      'NOT_FOUND',
      /^no task "\.\.\/etc"$/,
    );
    await expectError(
      await submit({ verdict: 'comment', sha256 }, tokens.reviewer, 'c000000000000000000000000'),
      404,
      'NOT_FOUND',
    );
  });

  it('needs a token', async () => {
    const response = await handleSubmitReview(
      jsonRequest('POST', `/tasks/${task.id}/reviews`, { verdict: 'comment', sha256 }, {}),
      fake.deps,
      { id: task.id },
    );
    await expectError(response, 401, 'UNAUTHENTICATED');
  });
});

describe('POST /api/v1/tasks/{id}/reviews/{reviewId}/dismiss', () => {
  function dismiss(
    body: unknown,
    params: { id: string; reviewId: string },
    token: string = tokens.reviewer,
  ): Promise<Response> {
    return handleDismissReview(
      jsonRequest(
        'POST',
        `/tasks/${params.id}/reviews/${params.reviewId}/dismiss`,
        body,
        auth(token),
      ),
      fake.deps,
      params,
    );
  }

  it("dismisses the caller's standing request for changes: 200 with the TaskView", async () => {
    const reviewId = fake.reviews.addRequestForChanges(task.id, tokenActors.reviewer);
    const response = await dismiss({ reason: 'fixed elsewhere' }, { id: task.id, reviewId });
    const view = await readJson<TaskView>(response, 200);
    expect(view.id).toBe(task.id);
    expect(fake.reviews.dismissed).toEqual([
      { taskId: task.id, reviewId, reason: 'fixed elsewhere', actor: tokenActors.reviewer },
    ]);
  });

  it('is 403 for a token without the reviewer scope', async () => {
    const reviewId = fake.reviews.addRequestForChanges(task.id, tokenActors.reviewer);
    const response = await dismiss({ reason: 'x' }, { id: task.id, reviewId }, tokens.agent);
    await expectError(response, 403, 'FORBIDDEN', /'reviewer' scope/);
    expect(fake.reviews.dismissed).toEqual([]);
  });

  it("maps the service's refusal of someone else's request to 403", async () => {
    const reviewId = fake.reviews.addRequestForChanges(task.id, cliActor);
    const response = await dismiss({ reason: 'x' }, { id: task.id, reviewId });
    await expectError(response, 403, 'FORBIDDEN', /^only cli, who requested the changes/);
  });

  it('needs a reason', async () => {
    const reviewId = fake.reviews.addRequestForChanges(task.id, tokenActors.reviewer);
    await expectError(
      await dismiss({ reason: '  ' }, { id: task.id, reviewId }),
      400,
      'INVALID_ARGUMENT',
      /^reason: say why the request is dismissed$/,
    );
    await expectError(
      await dismiss({}, { id: task.id, reviewId }),
      400,
      'INVALID_ARGUMENT',
      /^reason: /,
    );
  });

  it('is 404 for a review id that is not a cuid, and for an unknown review', async () => {
    await expectError(
      await dismiss({ reason: 'x' }, { id: task.id, reviewId: 'DROP TABLE' }),
      404,
      'NOT_FOUND',
      /^no review "DROP TABLE"$/,
    );
    await expectError(
      await dismiss({ reason: 'x' }, { id: task.id, reviewId: 'c000000000000000000000000' }),
      404,
      'NOT_FOUND',
      /^no review c0+ in task /,
    );
  });
});
