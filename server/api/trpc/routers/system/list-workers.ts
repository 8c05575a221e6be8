import { z } from 'zod';
import { workerFor } from '../../../../jobs';
import { authedProcedure } from '../../trpc';

export const workerViewSchema = z.object({
  id: z.string(),
  /** Admins only (null for everyone else, whose `id` is an opaque alias). */
  host: z.string().nullable(),
  pid: z.int().nullable(),
  capacity: z.int(),
  running: z.int(),
  tasks: z.int(),
  state: z.enum(['live', 'late', 'stopped']),
  startedAt: z.string(),
  heartbeatAt: z.string(),
  stoppedAt: z.string().nullable(),
});

/**
 * The worker processes and their load; empty on SQLite (one process runs everything). Host names
 * and pids only for admins (server/workers/worker-visibility.ts).
 */
export const listWorkers = authedProcedure
  .output(z.array(workerViewSchema).readonly())
  .query(async ({ ctx }) => (await ctx.listWorkers()).map((w) => workerFor(ctx.actor, w)));
