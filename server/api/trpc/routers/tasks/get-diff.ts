import { authedProcedure } from '../../trpc';
import { taskInputSchema } from '../../input-schemas';
import { diffViewSchema } from '../../view-schemas';

/** The stored diff under review, its SHA-256 and its structural flags. */
export const getDiff = authedProcedure
  .input(taskInputSchema)
  .output(diffViewSchema)
  .query(({ ctx, input }) => ctx.tasks.getDiff(input.taskId, ctx.actor));
