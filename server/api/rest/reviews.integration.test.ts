import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiToken } from '../../auth/api-tokens';
import { buildReviewArtifact } from '../../engine/review';
import type { ThreadListView, ThreadView } from '../../reviews';
import type { TaskView } from '../../tasks/task-api';
import { userIn } from '../../test-support/actors';
import { openScratchRuntime, type ScratchRuntime } from '../../test-support/scratch-runtime';
import type { RestDeps } from './handler';
import { handleDismissReview, handleSubmitReview } from './reviews';
import { expectError, readJson } from './test-support/assertions';
import { auth, base, getRequest, jsonRequest } from './test-support/requests';
import {
  handleListThreads,
  handleReplyToThread,
  handleResolveThread,
  handleReopenThread,
} from './threads';

// The review conversation over REST on a real runtime (SQLite, real tokens, the real review
// service): the handlers' wiring, and the service's own refusals as the agent meets them.

const diff = [
  'diff --git a/calc.py b/calc.py',
  'index 1111111..2222222 100644',
  '--- a/calc.py',
  '+++ b/calc.py',
  '@@ -1,2 +1,2 @@',
  ' def add(a, b):',
  '-    return a - b',
  '+    return a + b',
  '',
].join('\n');

let scratch: ScratchRuntime;
let deps: RestDeps;
let taskId: string;
let sha256: string;
/** rita, a reviewer: her token with the agent scope only, and her token that may review. */
let agentToken: string;
let reviewerToken: string;

beforeAll(async () => {
  scratch = await openScratchRuntime('sbx-rest-reviews-');
  const { db } = scratch.runtime;
  deps = { runtime: scratch.runtime };
  const rita = await userIn(db, 'rita', 'reviewer');
  agentToken = (await createApiToken(db, { user: 'rita', scopes: ['agent'], name: 'agent' })).token;
  reviewerToken = (
    await createApiToken(db, { user: 'rita', scopes: ['agent', 'reviewer'], name: 'review' })
  ).token;
  const artifact = buildReviewArtifact({
    diff: Buffer.from(diff),
    subject: 'Fix add',
    body: 'test',
    date: new Date('2026-12-06T10:00:00Z'),
    commit: 'c'.repeat(40),
  });
  sha256 = artifact.sha256;
  await db.diff.create({
    data: {
      sha256,
      bytes: new Uint8Array(artifact.bytes),
      flags: {},
      size: artifact.bytes.length,
    },
  });
  const task = await db.task.create({
    data: {
      status: 'awaiting_review',
      sourceKind: 'archive',
      archiveName: 'calc.tar.gz',
      testCommand: ['pytest', '-v'],
      ownerId: rita.kind === 'cli' ? null : rita.person.id,
      baselineCommit: 'b'.repeat(40),
      checkpointSha: 'c'.repeat(40),
      iterationCount: 1,
      maxIterations: 1,
      diffSha256: sha256,
    },
  });
  taskId = task.id;
}, 120_000);

afterAll(async () => {
  await scratch.close();
});

const submit = (body: unknown, token: string) =>
  handleSubmitReview(jsonRequest('POST', `/tasks/${taskId}/reviews`, body, auth(token)), deps, {
    id: taskId,
  });

const threadAction = (action: 'resolve' | 'reopen', threadId: string, token: string) =>
  (action === 'resolve' ? handleResolveThread : handleReopenThread)(
    new Request(`${base}/tasks/${taskId}/threads/${threadId}/${action}`, {
      method: 'POST',
      headers: auth(token),
    }),
    deps,
    { id: taskId, threadId },
  );

describe('the review conversation over REST, on a real runtime', () => {
  let threadId: string;

  it('an agent token comments on lines of the diff: 200 with the TaskView and its review', async () => {
    const response = await submit(
      {
        verdict: 'comment',
        sha256,
        comments: [
          { path: 'calc.py', side: 'new', startLine: 2, endLine: 2, body: 'adds now; see fix-2' },
        ],
      },
      agentToken,
    );
    const view = await readJson<TaskView>(response, 200);
    expect(view.review).toMatchObject({
      state: 'commented',
      openThreads: [{ path: 'calc.py', lines: ['    return a + b'] }],
    });
    threadId = view.review.openThreads[0]?.id ?? '';
  });

  it('lists the threads', async () => {
    const response = await handleListThreads(
      getRequest(`/tasks/${taskId}/threads`, auth(agentToken)),
      deps,
      { id: taskId },
    );
    const list = await readJson<ThreadListView>(response, 200);
    expect(list).toMatchObject({
      diffSha256: sha256,
      threads: [{ id: threadId, status: 'open', comments: [{ authorKind: 'agent' }] }],
    });
  });

  it('takes a reply from the agent token: 201 with the thread', async () => {
    const response = await handleReplyToThread(
      jsonRequest(
        'POST',
        `/tasks/${taskId}/threads/${threadId}/comments`,
        { body: 'and a test for it' },
        auth(agentToken),
      ),
      deps,
      { id: taskId, threadId },
    );
    const thread = await readJson<ThreadView>(response, 201);
    expect(thread.comments.map((c) => c.body)).toEqual([
      'adds now; see fix-2',
      'and a test for it',
    ]);
  });

  it("refuses the agent token resolving the thread with the service's 403", async () => {
    await expectError(
      await threadAction('resolve', threadId, agentToken),
      403,
      'FORBIDDEN',
      /^an agent cannot resolve a thread: it replies, and a reviewer resolves it$/,
    );
  });

  it('refuses an approval while the thread is open: 409 OPEN_THREADS', async () => {
    await expectError(
      await submit({ verdict: 'approve', sha256 }, reviewerToken),
      409,
      'OPEN_THREADS',
      /^1 thread on this diff is still open \(calc\.py:2 \(new\)\)/,
    );
    await expectError(
      await submit({ verdict: 'approve', sha256 }, agentToken),
      403,
      'FORBIDDEN',
      /'reviewer' scope/,
    );
  });

  it('resolves and reopens with the reviewer token', async () => {
    const resolved = await readJson<ThreadView>(
      await threadAction('resolve', threadId, reviewerToken),
      200,
    );
    expect(resolved.status).toBe('resolved');
    expect(resolved.resolvedBy).toMatch(/^rita/);
    await expectError(await threadAction('resolve', threadId, reviewerToken), 409, 'INVALID_STATE');
    const reopened = await readJson<ThreadView>(
      await threadAction('reopen', threadId, reviewerToken),
      200,
    );
    expect(reopened.status).toBe('open');
    await readJson<ThreadView>(await threadAction('resolve', threadId, reviewerToken), 200);
  });

  it("dismisses the reviewer's own standing request for changes", async () => {
    const person = await scratch.runtime.db.user.findUniqueOrThrow({ where: { username: 'rita' } });
    const request = await scratch.runtime.db.review.create({
      data: {
        taskId,
        verdict: 'request_changes',
        diffSha256: sha256,
        reviewer: 'rita',
        reviewerId: person.id,
      },
    });
    const dismiss = (token: string) =>
      handleDismissReview(
        jsonRequest(
          'POST',
          `/tasks/${taskId}/reviews/${request.id}/dismiss`,
          { reason: 'answered in the thread' },
          auth(token),
        ),
        deps,
        { id: taskId, reviewId: request.id },
      );
    await expectError(await dismiss(agentToken), 403, 'FORBIDDEN');
    const view = await readJson<TaskView>(await dismiss(reviewerToken), 200);
    expect(view.review.changesRequestedBy).toEqual([]);
  });

  it('approves once no thread is open: 200 with the approved task', async () => {
    const view = await readJson<TaskView>(
      await submit({ verdict: 'approve', sha256 }, reviewerToken),
      200,
    );
    expect(view).toMatchObject({ status: 'approved', approvedDiffSha256: sha256 });
    expect(view.review.state).toBe('approved');
  });
});
