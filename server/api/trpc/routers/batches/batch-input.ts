import { z } from 'zod';
import {
  batchIdPattern,
  createBatchBodySchema,
  dropBatchMemberBodySchema,
  pushBatchBodySchema,
  reviewBatchBodySchema,
} from '../../../../batches/batch-input';

/** Input schemas of the batch procedures: the REST bodies' rules, with the batch's id. */

export const batchIdSchema = z.string().regex(batchIdPattern, 'not a batch id');

export const batchInputSchema = z.strictObject({ id: batchIdSchema });

export const createBatchInputSchema = createBatchBodySchema;

export const dropMemberInputSchema = dropBatchMemberBodySchema.extend({ id: batchIdSchema });

export const reviewBatchInputSchema = reviewBatchBodySchema.extend({ id: batchIdSchema });

export const pushBatchInputSchema = pushBatchBodySchema.extend({ id: batchIdSchema });
