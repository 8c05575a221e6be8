import { z } from 'zod';
import { authedProcedure } from '../../trpc';

export const workerViewSchema = z.object({
  id: z.string(),
  host: z.string(),
  pid: z.int(),
  capacity: z.int(),
  running: z.int(),
  tasks: z.int(),
  state: z.enum(['live', 'late', 'stopped']),
  startedAt: z.string(),
  heartbeatAt: z.string(),
  stoppedAt: z.string().nullable(),
});

/** The worker processes and their load; empty on SQLite (one process runs everything). */
export const listWorkers = authedProcedure
  .output(z.array(workerViewSchema).readonly())
  .query(({ ctx }) => ctx.listWorkers());
