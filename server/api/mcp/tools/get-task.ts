import { z } from 'zod';
import { parseTaskId } from '../../http/schemas';
import { defineTool } from '../define-tool';
import { taskViewSchema } from '../schemas/task-view';
import { reviewBrief } from './review-text';
import { taskIdInput } from './task-id';

export const getTaskTool = defineTool({
  name: 'get_task',
  title: 'Get a task',
  description:
    'The task: status, setup (commands, egress log), baseline (counts, failing test ids), ' +
    'iterations with ranked hypotheses (each with `tests`: what it fixed, broke, left failing ' +
    "and lost; why it cannot win; failing runs' output tails), the plan, and the SHA-256 of " +
    'the diff under review with the tests it still leaves failing, and `review`: where the ' +
    'review stands (state, round, who requested changes) and the threads still open on the diff ' +
    '(list_threads, reply_to_thread).',
  input: z.strictObject({ taskId: taskIdInput }),
  output: taskViewSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ taskId }, { services, actor }) => services.tasks.getTask(parseTaskId(taskId), actor),
  render(task) {
    const json = JSON.stringify(task, null, 2);
    const brief = reviewBrief(task.review);
    return brief === null ? json : `${brief}\n\n${json}`;
  },
});
