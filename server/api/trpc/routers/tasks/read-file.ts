import { z } from 'zod';
import { authedProcedure } from '../../trpc';
import { readFileInputSchema } from '../../input-schemas';

export const readFile = authedProcedure
  .input(readFileInputSchema)
  .output(z.object({ path: z.string(), content: z.string() }))
  .query(async ({ ctx, input }) => ({
    path: input.path,
    content: await ctx.tasks.readFile(input.taskId, input.path, ctx.actor),
  }));
