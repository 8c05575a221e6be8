import { authedProcedure } from '../../trpc';
import { taskInputSchema } from '../../input-schemas';
import { taskViewSchema } from '../../view-schemas';

export const getTask = authedProcedure
  .input(taskInputSchema)
  .output(taskViewSchema)
  .query(({ ctx, input }) => ctx.tasks.getTask(input.taskId, ctx.actor));
