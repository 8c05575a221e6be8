import { z } from 'zod';
import { parseTaskId, submitHypothesesBodySchema } from '../../http/schemas';
import { defineTool } from '../define-tool';
import { taskIdInput } from './task-id';

export const submitHypothesesTool = defineTool({
  name: 'submit_hypotheses',
  title: 'Submit hypotheses',
  description:
    "Queues candidate fixes for the task's next iteration. A hypothesis is a name, the full new " +
    'contents of the files it changes (edits) and the files it deletes. The iteration runs them in ' +
    'parallel shadows when enough are in; follow it with get_task.',
  input: z.strictObject({
    taskId: taskIdInput,
    hypotheses: submitHypothesesBodySchema.shape.hypotheses,
  }),
  output: z.object({ accepted: z.array(z.string()).describe('the names queued') }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run({ taskId, hypotheses }, { services, actor }) {
    const { accepted } = await services.tasks.submitHypotheses(
      parseTaskId(taskId),
      hypotheses,
      actor,
    );
    return { accepted: [...accepted] };
  },
});
