import { z } from 'zod';

/** A task id as tools take it; the tools check it with the transports' `parseTaskId` (NOT_FOUND). */
export const taskIdInput = z
  .string()
  .min(1)
  .max(64)
  .describe('the task id, as create_task returned it');
