import { personOf, type Actor } from '../auth/actor';
import { requireTaskRight, taskRights, type TaskRight } from '../auth/permissions';
import type { Db } from '../db/client';
import type { Tx } from '../db/transaction';
import { isTaskStatus, type TaskStatus } from '../engine/lifecycle';
import { AppError } from '../errors/app-error';

/** The task row the review verbs read, once the actor's right on it is checked. */
export interface ReviewedTask {
  readonly id: string;
  readonly status: TaskStatus;
  readonly diffSha256: string | null;
  readonly checkpointSha: string | null;
  readonly reviewRounds: number;
  readonly iterationCount: number;
  readonly rights: ReadonlySet<TaskRight>;
}

/**
 * The review verbs' one gate: NOT_FOUND for a task the actor may not see (as for a missing one),
 * FORBIDDEN naming what is needed when they see it but lack `right`.
 */
export async function requireReviewedTask(
  db: Db | Tx,
  taskId: string,
  actor: Actor,
  right: TaskRight,
): Promise<ReviewedTask> {
  const task = await db.task.findUnique({
    where: { id: taskId },
    select: {
      id: true,
      ownerId: true,
      teamId: true,
      status: true,
      diffSha256: true,
      checkpointSha: true,
      reviewRounds: true,
      iterationCount: true,
    },
  });
  if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
  requireTaskRight(actor, task, right);
  if (!isTaskStatus(task.status)) {
    throw new AppError('INTERNAL', `unknown task status '${task.status}'`);
  }
  return { ...task, status: task.status, rights: taskRights(actor, task) };
}

/** Whether the actor acts as an admin (or the server's own CLI). */
export function isAdmin(actor: Actor): boolean {
  return actor.kind === 'cli' || actor.person.role === 'admin';
}

/** The person behind the actor; drafts and sticky reviews belong to one. */
export function requirePerson(actor: Actor, what: string) {
  const person = personOf(actor);
  if (person === null) {
    throw new AppError('INVALID_ARGUMENT', `${what} belong to a person; the CLI has none`);
  }
  return person;
}

/** How a comment's author is shown: an agent's token, or a person. */
export function authorKindOf(actor: Actor): 'agent' | 'person' {
  return actor.kind === 'token' && !actor.scopes.includes('reviewer') ? 'agent' : 'person';
}
