import { requireTaskRight, taskVisibility, type TaskRight } from '../auth/permissions';
import type { Db, Prisma } from '../db/client';
import { AppError } from '../errors/app-error';
import type { Actor } from './task-api';

/**
 * The task services' one gate: every verb names the right it needs, and a task the actor may not
 * see answers NOT_FOUND exactly as a missing one does (REST 404, tRPC NOT_FOUND, MCP's error).
 */
export async function requireTask(
  db: Db | Prisma.TransactionClient,
  taskId: string,
  actor: Actor,
  right: TaskRight,
): Promise<void> {
  const task = await db.task.findUnique({
    where: { id: taskId },
    select: { id: true, ownerId: true, teamId: true },
  });
  if (task === null) throw new AppError('NOT_FOUND', `no task ${taskId}`);
  requireTaskRight(actor, task, right);
}

/** The `where` of the tasks an actor may see. */
export function visibleTasks(actor: Actor): Prisma.TaskWhereInput {
  const visibility = taskVisibility(actor);
  if (visibility.all) return {};
  return {
    OR: [
      { ownerId: visibility.ownerId },
      ...(visibility.teamIds.length === 0 ? [] : [{ teamId: { in: [...visibility.teamIds] } }]),
    ],
  };
}

/**
 * Whether the actor sees a task, remembered per task id (the task list's change feed asks for
 * every event of every task; ownership does not change after creation).
 */
export function visibilityCache(db: Db, actor: Actor): (taskId: string) => Promise<boolean> {
  if (taskVisibility(actor).all) return () => Promise.resolve(true);
  const known = new Map<string, Promise<boolean>>();
  return (taskId) => {
    let seen = known.get(taskId);
    if (seen === undefined) {
      seen = requireTask(db, taskId, actor, 'see').then(
        () => true,
        () => false,
      );
      known.set(taskId, seen);
    }
    return seen;
  };
}
