import type { Db, Prisma } from '../db/client';
import { AppError } from '../errors/app-error';

/**
 * The audit log: who did what to which object. Rows are only ever appended. Pass a transaction
 * client to make the audit row commit (or roll back) with the change it records.
 */
export interface AuditEntryInput {
  /** `actorLabel(actor)`: "alice", "alice (token:<id>)", "cli", "setup-link" or "system". */
  readonly actor: string;
  /** The person behind the actor, for filtering by person (none for the CLI and the system). */
  readonly actorUserId?: string | undefined;
  /** Dotted verb, e.g. "token.create". */
  readonly action: string;
  /** What was acted on, e.g. "token:<id>"; what `listAudit({ target })` filters on. */
  readonly target?: string;
  /** The person acted on, by id: names change (an admin renames), ids do not. */
  readonly subjectUserId?: string | undefined;
  readonly details?: Prisma.InputJsonValue;
}

export interface AuditEntry {
  readonly id: string;
  readonly actor: string;
  readonly actorUserId: string | null;
  readonly action: string;
  readonly target: string | null;
  readonly subjectUserId: string | null;
  readonly details: Prisma.JsonValue | null;
  readonly createdAt: Date;
}

export async function recordAudit(
  db: Db | Prisma.TransactionClient,
  entry: AuditEntryInput,
): Promise<void> {
  if (entry.actor === '' || entry.action === '') {
    throw new AppError('INVALID_ARGUMENT', 'an audit entry needs an actor and an action');
  }
  await db.auditLog.create({
    data: {
      actor: entry.actor,
      actorUserId: entry.actorUserId ?? null,
      action: entry.action,
      target: entry.target ?? null,
      subjectUserId: entry.subjectUserId ?? null,
      ...(entry.details === undefined ? {} : { details: entry.details }),
    },
    select: { id: true },
  });
}

/**
 * Newest first; `limit` 1–1000 (default 100); `target` keeps only rows about that object (a task
 * id, "token:<id>", "user:<name>" …), `actorUserId` only what that person did (directly or
 * through their tokens), `personId` what that person did or had done to them (by id, so it holds
 * across renames).
 */
export async function listAudit(
  db: Db | Prisma.TransactionClient,
  options: { target?: string; actorUserId?: string; personId?: string; limit?: number } = {},
): Promise<AuditEntry[]> {
  const limit = options.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `limit must be a whole number from 1 to 1000, got ${limit}`,
    );
  }
  return db.auditLog.findMany({
    where: {
      ...(options.target === undefined ? {} : { target: options.target }),
      ...(options.actorUserId === undefined ? {} : { actorUserId: options.actorUserId }),
      ...(options.personId === undefined
        ? {}
        : { OR: [{ actorUserId: options.personId }, { subjectUserId: options.personId }] }),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit,
    select: {
      id: true,
      actor: true,
      actorUserId: true,
      action: true,
      target: true,
      subjectUserId: true,
      details: true,
      createdAt: true,
    },
  });
}
