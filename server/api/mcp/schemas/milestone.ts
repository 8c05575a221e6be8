import { z } from 'zod';

/** PlanStepView: one step of a task's plan with its gates' newest runs. */
export const planStepSchema = z.looseObject({
  index: z.int().describe('1-based'),
  title: z.string(),
  scope: z.string(),
  status: z.enum(['open', 'done']),
  doneAt: z.string().nullable(),
  gates: z.array(
    z.looseObject({
      argv: z.array(z.string()),
      lastRun: z
        .looseObject({
          green: z.boolean(),
          exitCode: z.int().nullable(),
          commitSha: z.string().nullable(),
          at: z.string(),
          current: z
            .boolean()
            .describe('whether it ran on the newest checkpoint (only then it counts)'),
        })
        .nullable(),
    }),
  ),
});

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
