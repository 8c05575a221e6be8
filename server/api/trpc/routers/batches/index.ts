import { z } from 'zod';
import { AppError } from '../../../../errors/app-error';
import { authedProcedure, router } from '../../trpc';
import {
  batchInputSchema,
  createBatchInputSchema,
  dropMemberInputSchema,
  pushBatchInputSchema,
  reviewBatchInputSchema,
} from './batch-input';
import {
  batchDiffSchema,
  batchPushViewSchema,
  batchViewSchema,
} from '../../../../batches/batch-view-schema';

/** A signed-in person's call, on a runtime that has the batch service. */
const batchProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.batches === null) throw new AppError('INTERNAL', 'batches are not configured');
  return next({ ctx: { ...ctx, batches: ctx.batches } });
});

/**
 * Integration batches for the pages `/coding/batches` and `/coding/batches/<id>`: a thin layer
 * over BatchServiceApi (server/batches/batch-api.ts), which checks the actor's rights on every
 * member task.
 */
export const batchesRouter = router({
  /** Newest first, those whose every member the person sees. */
  list: batchProcedure
    .output(z.array(batchViewSchema).readonly())
    .query(({ ctx }) => ctx.batches.listBatches(ctx.actor)),
  get: batchProcedure
    .input(batchInputSchema)
    .output(batchViewSchema)
    .query(({ ctx, input }) => ctx.batches.getBatch(input.id, ctx.actor)),
  /** The combined diff as text (git writes UTF-8 patches), and the SHA-256 of its bytes. */
  diff: batchProcedure
    .input(batchInputSchema)
    .output(batchDiffSchema)
    .query(async ({ ctx, input }) => {
      const diff = await ctx.batches.batchDiff(input.id, ctx.actor);
      return { text: diff.bytes.toString('utf8'), sha256: diff.sha256 };
    }),
  /** Preflighted at once; tested in the background unless a pair conflicts. */
  create: batchProcedure
    .input(createBatchInputSchema)
    .output(batchViewSchema)
    .mutation(({ ctx, input }) => ctx.batches.createBatch({ tasks: input.tasks }, ctx.actor)),
  drop: batchProcedure
    .input(dropMemberInputSchema)
    .output(batchViewSchema)
    .mutation(({ ctx, input }) => ctx.batches.dropMember(input.id, input.task, ctx.actor)),
  /** Approve or reject the combined diff whose hash the reviewer saw; STALE_DIFF if it changed. */
  review: batchProcedure
    .input(reviewBatchInputSchema)
    .output(batchViewSchema)
    .mutation(({ ctx, input }) =>
      ctx.batches.reviewBatch(
        input.id,
        { verdict: input.verdict, sha256: input.sha256 },
        ctx.actor,
      ),
    ),
  /** The approved combination, one commit per member, to a configured remote. */
  push: batchProcedure
    .input(pushBatchInputSchema)
    .output(batchPushViewSchema)
    .mutation(({ ctx, input }) =>
      ctx.batches.pushBatch(input.id, { remote: input.remote, branch: input.branch }, ctx.actor),
    ),
});
