import { z } from 'zod';
import { forgeKinds } from '../../../../engine/landing';
import { pushBodySchema } from '../../../../tasks/push-input';
import { authedProcedure } from '../../trpc';
import { taskIdSchema } from '../../input-schemas';

const pushOutcomeSchema = z.object({
  remote: z.string(),
  branch: z.string(),
  commit: z.string(),
  sha256: z.string(),
  pullRequest: z.object({ number: z.int(), url: z.string(), created: z.boolean() }).nullable(),
});

/** A reviewer pushes the approved change to a configured remote (and opens its pull request). */
export const push = authedProcedure
  .input(pushBodySchema.extend({ taskId: taskIdSchema }))
  .output(pushOutcomeSchema)
  .mutation(({ ctx, input }) => {
    const { taskId, ...body } = input;
    return ctx.tasks.push(taskId, body, ctx.actor);
  });

/** The remotes a push may go to (no credential). */
export const remotes = authedProcedure
  .output(
    z
      .array(z.object({ name: z.string(), url: z.string(), forge: z.enum(forgeKinds).nullable() }))
      .readonly(),
  )
  .query(({ ctx }) => ctx.tasks.listRemotes(ctx.actor));
