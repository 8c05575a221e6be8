import { z } from 'zod';
import { interdiffRefSchema, interdiffViewSchema } from '../../../../tasks/interdiff-refs';
import { authedProcedure } from '../../trpc';
import { taskIdSchema } from '../../input-schemas';

/** The diff between two trees of a task (hypotheses, checkpoints), and the files either touches. */
export const interdiff = authedProcedure
  .input(z.strictObject({ taskId: taskIdSchema, a: interdiffRefSchema, b: interdiffRefSchema }))
  .output(interdiffViewSchema)
  .query(({ ctx, input }) =>
    ctx.tasks.interdiff(input.taskId, { a: input.a, b: input.b }, ctx.actor),
  );
