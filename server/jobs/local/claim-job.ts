import type { Db } from '../../db/client';
import { checkDuration, checkWorkerId } from './job-checks';
import type { ClaimedJob } from './job-types';

/** Claim candidates read per round: losers of a race try the next one without a new query. */
const CLAIM_CANDIDATES = 8;
const CLAIM_ROUNDS = 4;

/** See `JobQueue.claim`. */
export async function claimJob(
  db: Db,
  clock: () => Date,
  workerId: string,
  leaseMs: number,
  options: { excludeTaskIds?: readonly string[] },
): Promise<ClaimedJob | null> {
  checkWorkerId(workerId);
  checkDuration(leaseMs, 'leaseMs');
  const exclude = options.excludeTaskIds ?? [];
  for (let round = 0; round < CLAIM_ROUNDS; round++) {
    const now = clock();
    const candidates = await db.job.findMany({
      where: {
        ...(exclude.length > 0 ? { taskId: { notIn: [...exclude] } } : {}),
        OR: [
          { state: { in: ['queued', 'parked'] }, runAt: { lte: now } },
          { state: 'running', lockedUntil: { lt: now } },
        ],
      },
      orderBy: [{ runAt: 'asc' }, { createdAt: 'asc' }],
      take: CLAIM_CANDIDATES,
      select: { id: true, taskId: true, state: true, attempts: true, lastError: true },
    });
    if (candidates.length === 0) return null;
    for (const candidate of candidates) {
      const reclaimed = candidate.state === 'running';
      const lockedUntil = new Date(now.getTime() + leaseMs);
      const { count } = await db.job.updateMany({
        where: reclaimed
          ? { id: candidate.id, state: 'running', lockedUntil: { lt: now } }
          : { id: candidate.id, state: candidate.state, runAt: { lte: now } },
        data: { state: 'running', lockedBy: workerId, lockedUntil, wakeRequested: false },
      });
      if (count === 1) {
        return {
          id: candidate.id,
          taskId: candidate.taskId,
          attempts: candidate.attempts,
          lastError: candidate.lastError,
          lockedUntil,
          reclaimed,
        };
      }
    }
    // Every candidate went to another worker: read the next ones.
  }
  return null;
}
