import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliActor } from '../../auth/actor';
import type { TaskView } from '../../tasks/task-api';
import { tokenActors, tokens } from '../http/test-support/fake-auth';
import { handleReview } from './review';
import { expectError, readJson } from './test-support/assertions';
import { createFakeRuntime, type FakeRuntime } from './test-support/fake-runtime';
import { auth, jsonRequest } from './test-support/requests';

let fake: FakeRuntime;
let task: TaskView;
let sha256: string;

beforeEach(async () => {
  fake = await createFakeRuntime();
  task = fake.tasks.addTask();
  sha256 = fake.tasks.setDiff(task.id, 'diff --git a/x b/x\n');
});
afterEach(async () => {
  await fake.dispose();
});

function review(body: unknown, token: string = tokens.reviewer): Promise<Response> {
  return handleReview(
    jsonRequest('POST', `/tasks/${task.id}/review`, body, auth(token)),
    fake.deps,
    {
      id: task.id,
    },
  );
}

describe('POST /api/v1/tasks/{id}/review', () => {
  it('approves with the hash the reviewer saw: 200 with the TaskView', async () => {
    const response = await review({ verdict: 'approve', sha256, comment: 'looks right' });
    const view = await readJson<TaskView>(response, 200);
    expect(view).toMatchObject({ id: task.id, status: 'approved', approvedDiffSha256: sha256 });
    expect(fake.tasks.reviews).toEqual([
      {
        taskId: task.id,
        input: { verdict: 'approve', sha256, comment: 'looks right' },
        actor: tokenActors.reviewer,
      },
    ]);
  });

  it('rejects', async () => {
    const view = await readJson<TaskView>(await review({ verdict: 'reject', sha256 }), 200);
    expect(view.status).toBe('rejected');
  });

  it('is 403 for a token without the reviewer scope, and the service is not asked', async () => {
    const response = await review({ verdict: 'approve', sha256 }, tokens.agent);
    await expectError(
      response,
      403,
      'FORBIDDEN',
      /^this token lacks the 'reviewer' scope \(its scopes: agent\)$/,
    );
    expect(fake.tasks.reviews).toEqual([]);
    expect((await fake.tasks.getTask(task.id, cliActor)).status).toBe('awaiting_review');
  });

  it('is 403 for an agent token even before its body is read', async () => {
    const response = await review('not json at all', tokens.agent);
    await expectError(response, 403, 'FORBIDDEN');
  });

  it('is 409 STALE_DIFF for another hash, and nothing changes', async () => {
    const response = await review({ verdict: 'approve', sha256: 'b'.repeat(64) });
    const error = await expectError(response, 409, 'STALE_DIFF', /diff changed/);
    expect(error.details).toEqual({ current: sha256 });
    const view = await fake.tasks.getTask(task.id, cliActor);
    expect(view).toMatchObject({ status: 'awaiting_review', approvedDiffSha256: null });
  });

  it.each([
    ['upper case', 'A'.repeat(64)],
    ['63 characters', 'a'.repeat(63)],
    ['65 characters', 'a'.repeat(65)],
    ['not hex', 'g'.repeat(64)],
  ])('refuses a sha256 in %s', async (_what, hash) => {
    const response = await review({ verdict: 'approve', sha256: hash });
    await expectError(response, 400, 'INVALID_ARGUMENT', /sha256: sha256 must be 64 lowercase/);
    expect(fake.tasks.reviews).toEqual([]);
  });

  it('refuses another verdict and unknown fields', async () => {
    await expectError(
      await review({ verdict: 'merge', sha256 }),
      400,
      'INVALID_ARGUMENT',
      /^verdict: /,
    );
    await expectError(
      await review({ verdict: 'approve', sha256, force: true }),
      400,
      'INVALID_ARGUMENT',
      /unknown field "force"/,
    );
  });

  it('needs a token', async () => {
    const response = await handleReview(
      jsonRequest('POST', `/tasks/${task.id}/review`, { verdict: 'approve', sha256 }, {}),
      fake.deps,
      { id: task.id },
    );
    await expectError(response, 401, 'UNAUTHENTICATED');
  });
});
