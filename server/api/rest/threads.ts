import { jsonResponse } from '../http/http-helpers';
import { readJsonBodyAs } from '../http/json-body';
import { bodyLimits, parseRecordId, parseTaskId, threadCommentBodySchema } from '../http/schemas';
import { authenticate } from './auth';
import { restHandler, type TaskParams, type ThreadParams } from './handler';

/** `GET /api/v1/tasks/{id}/threads` → `{"diffSha256","threads":[…]}` (ThreadListView). */
export const handleListThreads = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  const threads = await runtime.reviews.threads(parseTaskId(params.id), actor);
  return jsonResponse(threads);
});

/**
 * `POST /api/v1/tasks/{id}/threads/{threadId}/comments` `{"body"}` → `201` the ThreadView. Anyone
 * who may comment on the task may reply, an agent's token too (what it did about the thread).
 */
export const handleReplyToThread = restHandler<ThreadParams>(
  async (request, { runtime }, params) => {
    const actor = await authenticate(request, runtime);
    const id = parseTaskId(params.id);
    const threadId = parseRecordId(params.threadId, 'thread');
    const { body } = await readJsonBodyAs(request, threadCommentBodySchema, bodyLimits.small);
    const thread = await runtime.reviews.reply(id, threadId, body, actor);
    return jsonResponse(thread, 201);
  },
);

/**
 * A thread's status change, no body. The transport does not check scopes here: the service
 * decides (reviewers, admins and the person who opened the thread may; an agent's token gets 403
 * with the service's reason).
 */
const threadStatusHandler = (action: 'resolve' | 'reopen') =>
  restHandler<ThreadParams>(async (request, { runtime }, params) => {
    const actor = await authenticate(request, runtime);
    const id = parseTaskId(params.id);
    const threadId = parseRecordId(params.threadId, 'thread');
    return jsonResponse(await runtime.reviews[action](id, threadId, actor));
  });

/** `POST /api/v1/tasks/{id}/threads/{threadId}/resolve` → the ThreadView (`open → resolved`). */
export const handleResolveThread = threadStatusHandler('resolve');

/** `POST /api/v1/tasks/{id}/threads/{threadId}/reopen` → the ThreadView (`resolved → open`). */
export const handleReopenThread = threadStatusHandler('reopen');
