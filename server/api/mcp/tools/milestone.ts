import { z } from 'zod';
import { AppError } from '../../../errors/app-error';
import { parseTaskId } from '../../http/schemas';
import type { MilestoneAction } from '../../../tasks/task-api';
import { defineTool } from '../define-tool';
import { milestoneResultSchema } from '../schemas/milestone';
import { taskIdInput } from './task-id';

const input = z.strictObject({
  taskId: taskIdInput,
  action: z
    .enum(['status', 'done', 'reset'])
    .describe("'status': the plan; 'done': claim step N is finished; 'reset': reopen step N"),
  step: z.int().min(1).optional().describe("the 1-based step, for 'done' and 'reset'"),
});

function actionOf({ action, step }: z.output<typeof input>): MilestoneAction {
  if (action === 'status') return { action };
  if (step === undefined) {
    throw new AppError('INVALID_ARGUMENT', `step is required for '${action}'`);
  }
  return { action, step };
}

export const milestoneTool = defineTool({
  name: 'milestone',
  title: "Report on the task's plan",
  description:
    "The task's plan: 'status' shows the steps and their gates' newest runs; 'done' claims step N " +
    'is finished and is accepted only when every gate of the step ran green on the newest ' +
    "checkpoint (a refusal is a normal result: accepted false, with the reason); 'reset' reopens it.",
  input,
  output: milestoneResultSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  run: (args, { services, actor }) =>
    services.tasks.milestone(parseTaskId(args.taskId), actionOf(args), actor),
  render(result, { action }) {
    const status = JSON.stringify(result.status, null, 2);
    if (action === 'status') return status;
    return `${result.accepted ? 'accepted' : `refused: ${result.reason ?? ''}`}\n${status}`;
  },
});
