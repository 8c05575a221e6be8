import type { Prisma } from '../../db/client';

/** The lease fields of a job no worker holds. */
export const unlocked = { lockedBy: null, lockedUntil: null, wakeRequested: false } as const;

/** The condition of every state change by a worker: it still holds the job's lease. */
export function held(jobId: string, workerId: string): Prisma.JobWhereInput {
  return { id: jobId, state: 'running', lockedBy: workerId };
}
