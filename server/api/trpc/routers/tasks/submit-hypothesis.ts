import { z } from 'zod';
import { authedProcedure } from '../../trpc';
import { submitHypothesisInputSchema } from '../../input-schemas';

/** A hypothesis written in the browser; it joins the task's next iteration like any other. */
export const submitHypothesis = authedProcedure
  .input(submitHypothesisInputSchema)
  .output(z.object({ accepted: z.array(z.string()).readonly() }))
  .mutation(({ ctx, input }) =>
    ctx.tasks.submitHypotheses(input.taskId, [input.hypothesis], ctx.actor),
  );
