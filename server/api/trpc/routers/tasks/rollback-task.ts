import { authedProcedure } from '../../trpc';
import { taskInputSchema } from '../../input-schemas';
import { taskViewSchema } from '../../view-schemas';

/** Gives up on the fix: the worktree goes back to the baseline. */
export const rollbackTask = authedProcedure
  .input(taskInputSchema)
  .output(taskViewSchema)
  .mutation(({ ctx, input }) => ctx.tasks.rollback(input.taskId, ctx.actor));
