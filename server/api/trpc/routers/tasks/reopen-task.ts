import { authedProcedure } from '../../trpc';
import { taskInputSchema } from '../../input-schemas';
import { taskViewSchema } from '../../view-schemas';

/** Takes an approved task back to review (reviewers and admins); the approval is withdrawn. */
export const reopenTask = authedProcedure
  .input(taskInputSchema)
  .output(taskViewSchema)
  .mutation(({ ctx, input }) => ctx.tasks.reopen(input.taskId, ctx.actor));
