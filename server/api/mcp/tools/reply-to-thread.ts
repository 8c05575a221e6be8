import { z } from 'zod';
import { parseRecordId, parseTaskId, threadCommentBodySchema } from '../../http/schemas';
import { defineTool } from '../define-tool';
import { threadSchema } from '../schemas/review';
import { renderThread } from './review-text';
import { taskIdInput } from './task-id';
import { threadIdInput } from './thread-id';

export const replyToThreadTool = defineTool({
  name: 'reply_to_thread',
  title: 'Reply to a review thread',
  description:
    'Adds a comment (Markdown) to a review thread of the task, as the caller: what you changed ' +
    'about it, or why not. A reply does not resolve the thread; the reviewer does. Answers the ' +
    'thread with every comment.',
  input: z.strictObject({
    taskId: taskIdInput,
    threadId: threadIdInput,
    body: threadCommentBodySchema.shape.body.describe('the reply, Markdown'),
  }),
  output: threadSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  run: ({ taskId, threadId, body }, { services, actor }) =>
    services.reviews.reply(parseTaskId(taskId), parseRecordId(threadId, 'thread'), body, actor),
  render: (thread) => `${thread.status} thread\n${renderThread(thread)}`,
});
