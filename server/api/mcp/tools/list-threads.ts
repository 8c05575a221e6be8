import { z } from 'zod';
import { parseTaskId } from '../../http/schemas';
import { defineTool } from '../define-tool';
import { threadListSchema } from '../schemas/review';
import { renderThread } from './review-text';
import { taskIdInput } from './task-id';

export const listThreadsTool = defineTool({
  name: 'list_threads',
  title: "List a task's review threads",
  description:
    "The review threads on the task's diff: each on lines of one file (side 'new': the changed " +
    "file; 'old': the baseline), with the code lines it is about and its comments. Open threads " +
    'are what the reviewer wants answered: change the code with submit_hypotheses and say what ' +
    'you did with reply_to_thread. Resolved and outdated threads (their lines changed) are listed ' +
    'too. No tool resolves a thread or approves: a reviewer does.',
  input: z.strictObject({ taskId: taskIdInput }),
  output: threadListSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ taskId }, { services, actor }) => services.reviews.threads(parseTaskId(taskId), actor),
  render({ diffSha256, threads }) {
    const open = threads.filter((t) => t.status === 'open');
    const count = (status: string) => threads.filter((t) => t.status === status).length;
    const head = `diff under review: ${diffSha256 ?? 'none'}\n${open.length} open thread${open.length === 1 ? '' : 's'}`;
    const tail = `resolved: ${count('resolved')}, outdated: ${count('outdated')}`;
    return [head, ...open.map(renderThread), tail].join('\n\n');
  },
});
