import { z } from 'zod';

/** A thread id as tools take it; checked with the transports' `parseRecordId` (NOT_FOUND). */
export const threadIdInput = z
  .string()
  .min(1)
  .max(64)
  .describe('the thread id, as list_threads (or get_task) shows it');
