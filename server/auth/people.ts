import { hashPassword } from 'better-auth/crypto';
import { recordAudit } from '../audit/audit-log';
import type { Db, Prisma } from '../db/client';
import { inTransaction } from '../db/transaction';
import { AppError } from '../errors/app-error';
import { auditedAs, cliActor, isRole, type Actor, type Person, type Role } from './actor';
import { requireAdmin } from './permissions';
import { parseUsername, placeholderEmail } from './usernames';

/**
 * People: made by an admin (the CLI, the page) or by the one-time set-up link, never by signing
 * up. The password goes to better-auth's credential account as its scrypt hash; the person's role
 * and whether they are disabled are Shadowbox's columns on the same row.
 */

export const minPasswordLength = 8;
export const maxPasswordLength = 256;

export interface PersonInfo {
  readonly id: string;
  readonly username: string;
  readonly role: Role;
  readonly disabledAt: Date | null;
  readonly createdAt: Date;
}

export function parsePassword(password: string): string {
  if (password.length < minPasswordLength) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `the password must be at least ${minPasswordLength} characters, got ${password.length}`,
    );
  }
  if (password.length > maxPasswordLength) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `the password must be at most ${maxPasswordLength} characters, got ${password.length}`,
    );
  }
  return password;
}

export function parseRole(role: string): Role {
  if (!isRole(role)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `unknown role ${JSON.stringify(role)}; roles: admin, reviewer, author`,
    );
  }
  return role;
}

/**
 * Creates a person with a password, audited in the same transaction. CONFLICT when the username
 * is taken. `tx` lets the set-up link make the first admin in its own transaction.
 */
export async function addPerson(
  db: Db | Prisma.TransactionClient,
  input: { username: string; password: string; role: Role; actor?: Actor; auditAs?: string },
): Promise<PersonInfo> {
  const name = parseUsername(input.username);
  const password = parsePassword(input.password);
  const hash = await hashPassword(password);
  const create = async (tx: Prisma.TransactionClient): Promise<PersonInfo> => {
    const taken = await tx.user.findUnique({ where: { username: name }, select: { id: true } });
    if (taken !== null) throw new AppError('CONFLICT', `a user named ${name} already exists`);
    const row = await tx.user.create({
      data: {
        name,
        username: name,
        displayUsername: name,
        email: placeholderEmail(name),
        role: input.role,
      },
      select: { id: true, username: true, role: true, disabledAt: true, createdAt: true },
    });
    // better-auth finds the password as the "credential" account whose accountId is the user id.
    await tx.account.create({
      data: { userId: row.id, providerId: 'credential', accountId: row.id, password: hash },
    });
    await recordAudit(tx, {
      ...(input.auditAs === undefined
        ? auditedAs(input.actor ?? cliActor)
        : { actor: input.auditAs }),
      action: 'user.add',
      target: `user:${name}`,
      subjectUserId: row.id,
      details: { role: input.role },
    });
    return { ...row, username: name, role: input.role };
  };
  // Given the client: a transaction of its own, retried while the database is busy. Given the
  // caller's transaction (the set-up link's): within it.
  return '$transaction' in db ? inTransaction(db as Db, create) : create(db);
}

export async function listPeople(db: Db, actor: Actor = cliActor): Promise<PersonInfo[]> {
  requireAdmin(actor, 'listing people');
  const rows = await db.user.findMany({
    orderBy: { createdAt: 'asc' },
    select: { id: true, username: true, name: true, role: true, disabledAt: true, createdAt: true },
  });
  return rows.map((row) => ({
    id: row.id,
    username: row.username ?? row.name,
    role: isRole(row.role) ? row.role : 'author',
    disabledAt: row.disabledAt,
    createdAt: row.createdAt,
  }));
}

/**
 * Disables a person: no sign-in from then on, their sessions are deleted and their tokens refused.
 * Idempotent. NOT_FOUND for an unknown name.
 */
export async function disablePerson(
  db: Db,
  username: string,
  options: { actor?: Actor; now?: Date } = {},
): Promise<PersonInfo & { readonly alreadyDisabled: boolean }> {
  const actor = options.actor ?? cliActor;
  requireAdmin(actor, 'disabling people');
  const name = parseUsername(username);
  return inTransaction(db, async (tx) => {
    const row = await tx.user.findUnique({ where: { username: name } });
    if (row === null) throw new AppError('NOT_FOUND', `no user named ${name}`);
    const role: Role = isRole(row.role) ? row.role : 'author';
    if (row.disabledAt !== null) {
      return { ...row, username: name, role, alreadyDisabled: true };
    }
    const disabledAt = options.now ?? new Date();
    await tx.user.update({ where: { id: row.id }, data: { disabledAt } });
    await tx.session.deleteMany({ where: { userId: row.id } });
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: 'user.disable',
      target: `user:${name}`,
      subjectUserId: row.id,
    });
    return { ...row, username: name, role, disabledAt, alreadyDisabled: false };
  });
}

/**
 * Renames a person: only an admin (or the CLI) may, never the person themselves (better-auth's own
 * update-user is refused in auth.ts), so a name cannot be squatted and `user disable NAME` always
 * finds whom the admin means. Sessions, tokens, teams and tasks follow: they hold the id. The
 * placeholder email follows too, or a later person given the old name would collide with it.
 * Audited with the person's id. NOT_FOUND for an unknown name, CONFLICT for a taken one.
 */
export async function renamePerson(
  db: Db,
  input: { from: string; to: string; actor?: Actor },
): Promise<PersonInfo & { readonly previousUsername: string }> {
  const actor = input.actor ?? cliActor;
  requireAdmin(actor, 'renaming people');
  const from = parseUsername(input.from);
  const to = parseUsername(input.to);
  if (from === to) throw new AppError('INVALID_ARGUMENT', `${from} is already named ${to}`);
  return inTransaction(db, async (tx) => {
    const row = await tx.user.findUnique({ where: { username: from } });
    if (row === null) throw new AppError('NOT_FOUND', `no user named ${from}`);
    const taken = await tx.user.findUnique({ where: { username: to }, select: { id: true } });
    if (taken !== null) throw new AppError('CONFLICT', `a user named ${to} already exists`);
    await tx.user.update({
      where: { id: row.id },
      data: { username: to, displayUsername: to, name: to, email: placeholderEmail(to) },
    });
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: 'user.rename',
      target: `user:${to}`,
      subjectUserId: row.id,
      details: { from, to },
    });
    return {
      id: row.id,
      username: to,
      role: isRole(row.role) ? row.role : 'author',
      disabledAt: row.disabledAt,
      createdAt: row.createdAt,
      previousUsername: from,
    };
  });
}

/** The person behind a session or a token, with their teams; null when missing or disabled. */
export async function loadPerson(db: Db, userId: string): Promise<Person | null> {
  const row = await db.user.findUnique({
    where: { id: userId },
    select: {
      id: true,
      username: true,
      name: true,
      role: true,
      disabledAt: true,
      memberships: { select: { teamId: true, role: true } },
    },
  });
  if (row === null || row.disabledAt !== null) return null;
  return {
    id: row.id,
    username: row.username ?? row.name,
    // Fail closed: a role the code does not know is the least one.
    role: isRole(row.role) ? row.role : 'author',
    teams: row.memberships.flatMap((m) =>
      isRole(m.role) ? [{ teamId: m.teamId, role: m.role }] : [],
    ),
  };
}

/** How many people exist (the set-up link is offered while there are none). */
export function countPeople(db: Db): Promise<number> {
  return db.user.count();
}

/** The person's id, or NOT_FOUND naming them. */
export async function personIdOf(
  db: Db,
  username: string,
): Promise<{ id: string; role: Role; disabled: boolean }> {
  const name = parseUsername(username);
  const row = await db.user.findUnique({
    where: { username: name },
    select: { id: true, role: true, disabledAt: true },
  });
  if (row === null) throw new AppError('NOT_FOUND', `no user named ${name}`);
  return {
    id: row.id,
    role: isRole(row.role) ? row.role : 'author',
    disabled: row.disabledAt !== null,
  };
}
