import { promoteBodySchema } from '../../../../tasks/promote-input';
import { authedProcedure } from '../../trpc';
import { taskIdSchema } from '../../input-schemas';
import { taskViewSchema } from '../../view-schemas';

/** A reviewer puts a passing runner-up up for review in the ranked winner's place, for a reason. */
export const promote = authedProcedure
  .input(promoteBodySchema.extend({ taskId: taskIdSchema }))
  .output(taskViewSchema)
  .mutation(({ ctx, input }) =>
    ctx.tasks.promote(
      input.taskId,
      { hypothesis: input.hypothesis, reason: input.reason },
      ctx.actor,
    ),
  );
