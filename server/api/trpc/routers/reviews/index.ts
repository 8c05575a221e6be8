import { z } from 'zod';
import {
  draftViewSchema,
  reviewHistoryItemSchema,
  threadListViewSchema,
  threadViewSchema,
} from '../../../../reviews';
import {
  dismissReviewBodySchema,
  draftBodySchema,
  submitReviewBodySchema,
  threadCommentBodySchema,
} from '../../../http/schemas';
import { taskIdSchema, taskInputSchema } from '../../input-schemas';
import { AppError } from '../../../../errors/app-error';
import { authedProcedure, router } from '../../trpc';
import { taskViewSchema } from '../../view-schemas';

/** A signed-in person's call, on a runtime that has the review service. */
const reviewProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.reviews === null) throw new AppError('INTERNAL', 'reviews are not configured');
  return next({ ctx: { ...ctx, reviews: ctx.reviews } });
});

const recordId = z.string().regex(/^[a-z0-9]{20,40}$/, 'not an id');
const threadInput = z.strictObject({ taskId: taskIdSchema, threadId: recordId });

/**
 * The review conversation for the page: threads, the person's drafts, one review submission
 * (answered with the task, as the verdict changed it), and the thread actions.
 */
export const reviewsRouter = router({
  threads: reviewProcedure
    .input(taskInputSchema)
    .output(threadListViewSchema)
    .query(({ ctx, input }) => ctx.reviews.threads(input.taskId, ctx.actor)),
  history: reviewProcedure
    .input(taskInputSchema)
    .output(z.array(reviewHistoryItemSchema).readonly())
    .query(({ ctx, input }) => ctx.reviews.history(input.taskId, ctx.actor)),
  diffAt: reviewProcedure
    .input(
      z.strictObject({
        taskId: taskIdSchema,
        sha256: z.string().regex(/^[0-9a-f]{64}$/, 'not a SHA-256'),
      }),
    )
    .output(z.object({ diff: z.string(), sha256: z.string() }))
    .query(({ ctx, input }) => ctx.reviews.diffAt(input.taskId, input.sha256, ctx.actor)),
  drafts: reviewProcedure
    .input(taskInputSchema)
    .output(z.array(draftViewSchema).readonly())
    .query(({ ctx, input }) => ctx.reviews.drafts(input.taskId, ctx.actor)),
  saveDraft: reviewProcedure
    .input(z.object({ taskId: taskIdSchema, draftId: recordId.nullable(), draft: draftBodySchema }))
    .output(draftViewSchema)
    .mutation(({ ctx, input }) =>
      ctx.reviews.saveDraft(input.taskId, input.draftId, input.draft, ctx.actor),
    ),
  deleteDraft: reviewProcedure
    .input(z.strictObject({ taskId: taskIdSchema, draftId: recordId }))
    .mutation(({ ctx, input }) => ctx.reviews.deleteDraft(input.taskId, input.draftId, ctx.actor)),
  submit: reviewProcedure
    .input(submitReviewBodySchema.extend({ taskId: taskIdSchema }))
    .output(taskViewSchema)
    .mutation(async ({ ctx, input }) => {
      const { taskId, ...review } = input;
      await ctx.reviews.submit(taskId, review, ctx.actor);
      return ctx.tasks.getTask(taskId, ctx.actor);
    }),
  reply: reviewProcedure
    .input(threadInput.extend(threadCommentBodySchema.shape))
    .output(threadViewSchema)
    .mutation(({ ctx, input }) =>
      ctx.reviews.reply(input.taskId, input.threadId, input.body, ctx.actor),
    ),
  resolve: reviewProcedure
    .input(threadInput)
    .output(threadViewSchema)
    .mutation(({ ctx, input }) => ctx.reviews.resolve(input.taskId, input.threadId, ctx.actor)),
  reopen: reviewProcedure
    .input(threadInput)
    .output(threadViewSchema)
    .mutation(({ ctx, input }) => ctx.reviews.reopen(input.taskId, input.threadId, ctx.actor)),
  dismiss: reviewProcedure
    .input(
      z
        .strictObject({ taskId: taskIdSchema, reviewId: recordId })
        .extend(dismissReviewBodySchema.shape),
    )
    .output(taskViewSchema)
    .mutation(async ({ ctx, input }) => {
      await ctx.reviews.dismiss(input.taskId, input.reviewId, input.reason, ctx.actor);
      return ctx.tasks.getTask(input.taskId, ctx.actor);
    }),
});
