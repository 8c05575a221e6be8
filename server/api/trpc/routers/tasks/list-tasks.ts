import { z } from 'zod';
import { authedProcedure } from '../../trpc';
import { taskListSchema } from '../../view-schemas';

export const listTasks = authedProcedure
  .input(z.object({ limit: z.int().min(1).max(500).optional() }).optional())
  .output(taskListSchema)
  .query(({ ctx, input }) =>
    ctx.tasks.listTasks(ctx.actor, input?.limit === undefined ? undefined : { limit: input.limit }),
  );
