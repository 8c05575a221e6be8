import { z } from 'zod';
import { parseTaskId } from '../../http/schemas';
import { defineTool } from '../define-tool';
import { taskViewSchema } from '../schemas/task-view';
import { taskIdInput } from './task-id';

/**
 * An agent that has nothing more to try hands its partial fix to the reviewers instead of
 * leaving the task to wait out `hypothesisWaitSecs`. It is not a verdict: a person still reviews.
 */
export const stopWaitingTool = defineTool({
  name: 'stop_waiting',
  title: 'Stop waiting: the partial fix goes to review now',
  description:
    'For a task waiting for hypotheses whose newest checkpoint fixed some failing tests and broke ' +
    'none (`can.sendToReview` in get_task): puts that checkpoint up for review now, marked partial, ' +
    'instead of waiting for more hypotheses. Refused while nothing was fixed yet.',
  input: z.strictObject({ taskId: taskIdInput }),
  output: taskViewSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  run: ({ taskId }, { services, actor }) => services.tasks.sendToReview(parseTaskId(taskId), actor),
});
