import { authedProcedure } from '../../trpc';
import { taskInputSchema } from '../../input-schemas';
import { taskViewSchema } from '../../view-schemas';

export const cancelTask = authedProcedure
  .input(taskInputSchema)
  .output(taskViewSchema)
  .mutation(({ ctx, input }) => ctx.tasks.cancel(input.taskId, ctx.actor));
