import { z } from 'zod';
import { parseTaskId } from '../../http/schemas';
import { defineTool } from '../define-tool';
import { taskViewSchema } from '../schemas/task-view';
import { taskIdInput } from './task-id';

export const getTaskTool = defineTool({
  name: 'get_task',
  title: 'Get a task',
  description:
    'The task: status, setup (commands, egress log), baseline (counts, failing test ids), ' +
    'iterations with ranked hypotheses (each with `tests`: what it fixed, broke, left failing ' +
    "and lost; why it cannot win; failing runs' output tails), the plan, and the SHA-256 of " +
    'the diff under review with the tests it still leaves failing.',
  input: z.strictObject({ taskId: taskIdInput }),
  output: taskViewSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ taskId }, { services, actor }) => services.tasks.getTask(parseTaskId(taskId), actor),
});
