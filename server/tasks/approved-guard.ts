import { AppError } from '../errors/app-error';

/**
 * An approved task takes nothing (no hypothesis, review, promotion or rollback) until a reviewer
 * reopens it (see `acceptsWork`): refuses `what` on one, saying how to go on.
 */
export function refuseWhileApproved(taskId: string, status: string, what: string): void {
  if (status === 'approved') {
    throw new AppError(
      'INVALID_STATE',
      `task ${taskId} is approved: a reviewer must reopen it before ${what}`,
    );
  }
}
