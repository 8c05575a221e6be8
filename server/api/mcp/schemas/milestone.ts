import { z } from 'zod';
import { planStepViewSchema } from '../../../tasks/task-view-schema';
import { openSchema } from './open-schema';

/** PlanStepView: one step of a task's plan with its gates' newest runs (as the task view has it). */
export const planStepSchema = openSchema(planStepViewSchema);

/**
 * MilestoneResult as one object (an output schema must be an object): `reason` is there exactly
 * when `accepted` is false.
 */
export const milestoneResultSchema = z.looseObject({
  accepted: z.boolean(),
  reason: z
    .string()
    .optional()
    .describe('why `done` was refused: the gates that did not run green after the last write'),
  status: z.looseObject({
    current: planStepSchema.nullable().describe('the first open step; null when all are done'),
    steps: z.array(planStepSchema),
  }),
});
