import { z } from 'zod';
import { authedProcedure } from '../../trpc';

const enforcement = z.enum([
  'cgroup v1',
  'cgroup v2',
  'rlimit per process',
  'rlimit per user',
  'upper-layer watcher and file-size rlimit',
  'not enforced',
]);

export const sandboxStatusSchema = z
  .object({
    mode: z.enum(['overlay', 'inplace']),
    fallbackReason: z.string().nullable(),
    capabilities: z
      .object({
        memory: enforcement,
        pids: enforcement,
        disk: enforcement,
        identity: z.string(),
        seccomp: z.string(),
        proc: z.string(),
        notes: z.array(z.string()).readonly(),
      })
      .nullable(),
    defaultLimits: z.object({
      maxMemoryMb: z.int(),
      maxPids: z.int(),
      maxDiskMb: z.int(),
      maxInodes: z.int(),
    }),
  })
  .nullable();

export type SandboxStatusView = z.infer<typeof sandboxStatusSchema>;

/** How runs are isolated here and which caps the machine enforces (the start-up probe's report). */
export const sandboxStatus = authedProcedure
  .output(sandboxStatusSchema)
  .query(({ ctx }) => ctx.sandbox);
