import { authedProcedure } from '../../trpc';
import { reviewInputSchema } from '../../input-schemas';
import { taskViewSchema } from '../../view-schemas';

/** Approve or reject the diff whose hash the reviewer saw; STALE_DIFF (409) if it changed. */
export const reviewTask = authedProcedure
  .input(reviewInputSchema)
  .output(taskViewSchema)
  .mutation(({ ctx, input }) =>
    ctx.tasks.review(
      input.taskId,
      { verdict: input.verdict, sha256: input.sha256, comment: input.comment },
      ctx.actor,
    ),
  );
