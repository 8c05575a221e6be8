import { z } from 'zod';
import { knownFailuresSchema } from '../../../http/schemas';
import { authedProcedure } from '../../trpc';
import { taskIdSchema, taskInputSchema } from '../../input-schemas';
import { taskViewSchema } from '../../view-schemas';

/** A waiting task's newest checkpoint goes to review now, partial (owner, reviewers, admins). */
export const sendToReview = authedProcedure
  .input(taskInputSchema)
  .output(taskViewSchema)
  .mutation(({ ctx, input }) => ctx.tasks.sendToReview(input.taskId, ctx.actor));

/** Tests that failed before any change and still fail become known failures. */
export const acceptKnownFailures = authedProcedure
  .input(z.strictObject({ taskId: taskIdSchema, ids: knownFailuresSchema.min(1) }))
  .output(taskViewSchema)
  .mutation(({ ctx, input }) => ctx.tasks.acceptKnownFailures(input.taskId, input.ids, ctx.actor));
