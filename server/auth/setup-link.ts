import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import { AppError } from '../errors/app-error';
import { addPerson, countPeople, type PersonInfo } from './people';

/**
 * The first run: while nobody has an account, the server prints a link (as Jupyter prints its
 * token URL) whose secret lets whoever holds it create the first admin in the browser. The link
 * works once and expires; only the secret's SHA-256 is stored, and a second link (another start,
 * another web process) does not revoke the first: each works until it is used, it expires, or
 * someone has an account.
 */

export const setupLinkLifetimeMs = 60 * 60_000;

const hashOf = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest('hex');

/** A new link's secret, or null when someone already has an account. */
export async function createSetupLink(
  db: Db,
  now: Date = new Date(),
): Promise<{ secret: string; expiresAt: Date } | null> {
  if ((await countPeople(db)) > 0) return null;
  const secret = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + setupLinkLifetimeMs);
  await db.setupLink.create({ data: { hash: hashOf(secret), expiresAt } });
  return { secret, expiresAt };
}

/** The URL to print: `<base>/setup?token=<secret>`. */
export function setupLinkUrl(baseUrl: string, secret: string): string {
  const url = new URL('/setup', baseUrl);
  url.searchParams.set('token', secret);
  return url.toString();
}

const refused =
  'this set-up link is not valid: it was used, it expired, or an account already exists';

/** Whether the link can still be used (the set-up page asks before showing its form). */
export async function checkSetupLink(
  db: Db,
  secret: string,
  now: Date = new Date(),
): Promise<boolean> {
  if (secret === '' || (await countPeople(db)) > 0) return false;
  const row = await db.setupLink.findUnique({ where: { hash: hashOf(secret) } });
  return row !== null && row.usedAt === null && row.expiresAt > now;
}

/**
 * Creates the first admin with the link's secret: the link is marked used in the same
 * transaction, so two tabs racing with one link make one admin. FORBIDDEN when the link is
 * unknown, used or expired, or anyone already has an account.
 */
export async function redeemSetupLink(
  db: Db,
  input: { secret: string; username: string; password: string },
  now: Date = new Date(),
): Promise<PersonInfo> {
  return inTransaction(db, async (tx) => {
    const { count } = await tx.setupLink.updateMany({
      where: { hash: hashOf(input.secret), usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    if (count !== 1 || (await tx.user.count()) > 0) throw new AppError('FORBIDDEN', refused);
    return addPerson(tx, {
      username: input.username,
      password: input.password,
      role: 'admin',
      auditAs: 'setup-link',
    });
  });
}
