import { z } from 'zod';
import { parseTaskId } from '../../api/rest/schemas';
import { defineTool } from '../define-tool';
import { taskViewSchema } from '../schemas/task-view';
import { taskIdInput } from './task-id';

export const getTaskTool = defineTool({
  name: 'get_task',
  title: 'Get a task',
  description:
    "The task: status, baseline counts, iterations with ranked hypotheses (and failing runs' output " +
    'tails), the plan and the SHA-256 of the diff under review.',
  input: z.strictObject({ taskId: taskIdInput }),
  output: taskViewSchema,
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ taskId }, { services }) => services.tasks.getTask(parseTaskId(taskId)),
});
