import { z } from 'zod';
import { reviewBodySchema } from '../../../http/schemas';
import { pushBodySchema } from '../../../../tasks/push-input';
import { taskIdSchema } from '../../input-schemas';

/** Input schemas of the batch procedures; the field rules are the task procedures'. */

// Batch ids are cuids, like task ids.
export const batchIdSchema = z.string().regex(/^[a-z0-9]{20,40}$/, 'not a batch id');

export const batchInputSchema = z.strictObject({ id: batchIdSchema });

/** The service checks the members (approved, one Git URL, the actor's); this, the shape. */
export const createBatchInputSchema = z.strictObject({
  tasks: z
    .array(taskIdSchema)
    .min(2, 'a batch has 2 to 8 tasks')
    .max(8, 'a batch has 2 to 8 tasks')
    .refine((ids) => new Set(ids).size === ids.length, 'a task is in a batch once'),
});

export const dropMemberInputSchema = z.strictObject({ id: batchIdSchema, task: taskIdSchema });

/** A verdict on the combined diff: no comment (the batch keeps none). */
export const reviewBatchInputSchema = z.strictObject({
  id: batchIdSchema,
  verdict: reviewBodySchema.shape.verdict,
  sha256: reviewBodySchema.shape.sha256,
});

/** A batch is pushed one commit per member, with no pull request: remote and branch only. */
export const pushBatchInputSchema = z.strictObject({
  id: batchIdSchema,
  remote: pushBodySchema.shape.remote,
  branch: pushBodySchema.shape.branch,
});
