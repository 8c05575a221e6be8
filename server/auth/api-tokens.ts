import { createHash, randomBytes } from 'node:crypto';
import { recordAudit } from '../audit/audit-log';
import type { Db, Prisma } from '../db/client';
import { inTransaction } from '../db/transaction';
import { AppError } from '../errors/app-error';
import { actorLabel, cliActor, personOf, tokenScopes, type Actor, type Scope } from './actor';
import { loadPerson, personIdOf } from './people';
import { requireAdmin, scopesAllowed } from './permissions';

/**
 * API tokens: bearer secrets for agents and reviewers. A token is `sbx_` followed by 32 random
 * bytes in base64url; it is shown once, at creation, and only the hex SHA-256 of the whole string
 * is stored (ApiToken.hash), so a copy of the database does not hand out working tokens. A token
 * belongs to a person and acts as them, narrowed to its scopes, never beyond their role.
 */

export const TOKEN_PREFIX = 'sbx_';

/** `sbx_` + base64url of 32 bytes (43 characters, no padding). */
const TOKEN_PATTERN = /^sbx_[A-Za-z0-9_-]{43}$/;

/** lastUsedAt is written at most once per this interval per token (reads stay reads). */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;

const MAX_NAME_LENGTH = 100;
const DEFAULT_NAME = 'unnamed';

/** What `listApiTokens` and `revokeApiToken` return: everything but the hash. */
export interface ApiTokenInfo {
  readonly id: string;
  /** The owner's username (null for a token made before accounts, which is refused). */
  readonly user: string | null;
  readonly name: string;
  readonly scopes: Scope[];
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
}

export interface CreatedApiToken {
  readonly id: string;
  readonly user: string;
  /** The secret; shown once, never stored. */
  readonly token: string;
  readonly scopes: Scope[];
  readonly name: string;
}

/** A new random token string (not stored anywhere). */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** The hex SHA-256 of the whole token string: what ApiToken.hash holds. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (tokenScopes as readonly string[]).includes(value);
}

/**
 * Validates requested scopes: at least one, each `agent` or `reviewer`. Returns them deduplicated
 * in canonical order. INVALID_ARGUMENT names the first bad scope.
 */
export function parseScopes(scopes: readonly string[]): Scope[] {
  if (scopes.length === 0) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `a token needs at least one scope; valid scopes: ${tokenScopes.join(', ')}`,
    );
  }
  for (const scope of scopes) {
    if (!isScope(scope)) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `unknown scope ${JSON.stringify(scope)}; valid scopes: ${tokenScopes.join(', ')}`,
        { details: { scope } },
      );
    }
  }
  return tokenScopes.filter((scope) => scopes.includes(scope));
}

/** Trims a token name; refuses empty, over-long or control-character names. */
export function parseTokenName(name: string | undefined): string {
  if (name === undefined) return DEFAULT_NAME;
  const trimmed = name.trim();
  if (trimmed === '') throw new AppError('INVALID_ARGUMENT', 'the token name must not be empty');
  if (trimmed.length > MAX_NAME_LENGTH) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `the token name must be at most ${MAX_NAME_LENGTH} characters, got ${trimmed.length}`,
    );
  }
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(trimmed)) {
    throw new AppError('INVALID_ARGUMENT', 'the token name must not contain control characters');
  }
  return trimmed;
}

/**
 * The token in an `Authorization` header value: `Bearer <token>` (scheme case-insensitive).
 * UNAUTHENTICATED says whether the header is missing or malformed; it never echoes the header.
 */
export function parseBearerToken(authorization: string | null | undefined): string {
  if (authorization === null || authorization === undefined || authorization.trim() === '') {
    throw new AppError(
      'UNAUTHENTICATED',
      "missing Authorization header; send 'Authorization: Bearer <token>'",
    );
  }
  const match = /^[ \t]*([^ \t]+)[ \t]+([^ \t]+)[ \t]*$/.exec(authorization);
  const scheme = match?.[1];
  const token = match?.[2];
  if (scheme === undefined || token === undefined || scheme.toLowerCase() !== 'bearer') {
    throw new AppError(
      'UNAUTHENTICATED',
      "malformed Authorization header; expected 'Bearer <token>'",
    );
  }
  if (!TOKEN_PATTERN.test(token)) {
    throw new AppError(
      'UNAUTHENTICATED',
      `malformed bearer token; Shadowbox tokens are '${TOKEN_PREFIX}' followed by 43 base64url characters`,
    );
  }
  return token;
}

/** Scopes as read back from the JSON column: unknown entries are dropped (fail closed). */
function storedScopes(value: Prisma.JsonValue): Scope[] {
  if (!Array.isArray(value)) return [];
  return tokenScopes.filter((scope) => value.includes(scope));
}

const infoSelect = {
  id: true,
  user: { select: { username: true } },
  name: true,
  scopes: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

function toInfo(row: {
  id: string;
  user: { username: string | null } | null;
  name: string;
  scopes: Prisma.JsonValue;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}): ApiTokenInfo {
  return { ...row, user: row.user?.username ?? null, scopes: storedScopes(row.scopes) };
}

/** Only admins (and the CLI) act on other people's tokens. */
function requireOwnOrAdmin(actor: Actor, owner: string | null, what: string): void {
  const person = personOf(actor);
  if (person !== null && person.role !== 'admin' && person.username !== owner) {
    throw new AppError('FORBIDDEN', `${what} of another person needs an admin`);
  }
}

/**
 * Creates a token for `user` and audits it in one transaction. `actor` is who asked (default: the
 * CLI): people make their own tokens, admins anyone's. FORBIDDEN when a scope exceeds the user's
 * role (an author's token cannot review) or the user is disabled.
 */
export async function createApiToken(
  db: Db,
  options: { user: string; scopes: readonly Scope[]; name?: string; actor?: Actor },
): Promise<CreatedApiToken> {
  const scopes = parseScopes(options.scopes);
  const name = parseTokenName(options.name);
  const actor = options.actor ?? cliActor;
  if (actor.kind === 'token') {
    throw new AppError('FORBIDDEN', 'a token cannot make tokens; sign in or use the CLI');
  }
  const owner = await personIdOf(db, options.user);
  requireOwnOrAdmin(actor, options.user.trim().toLowerCase(), 'making a token');
  if (owner.disabled) throw new AppError('FORBIDDEN', `${options.user} is disabled`);
  const beyond = scopes.filter((scope) => !scopesAllowed(owner.role).includes(scope));
  if (beyond.length > 0) {
    throw new AppError(
      'FORBIDDEN',
      `${options.user} is ${owner.role === 'author' ? 'an' : 'a'} ${owner.role}: a token cannot have the '${beyond.join("', '")}' scope beyond its user's rights`,
      { details: { user: options.user, role: owner.role, scopes: beyond } },
    );
  }
  const token = generateToken();
  const { id } = await inTransaction(db, async (tx) => {
    const row = await tx.apiToken.create({
      data: { name, hash: hashToken(token), scopes, userId: owner.id },
      select: { id: true },
    });
    await recordAudit(tx, {
      actor: actorLabel(actor),
      ...auditPerson(actor),
      action: 'token.create',
      target: `token:${row.id}`,
      subjectUserId: owner.id,
      details: { name, scopes, user: options.user },
    });
    return row;
  });
  return { id, user: options.user.trim().toLowerCase(), token, scopes, name };
}

function auditPerson(actor: Actor): { actorUserId?: string } {
  const person = personOf(actor);
  return person === null ? {} : { actorUserId: person.id };
}

const INVALID_OR_REVOKED = 'invalid or revoked API token';

/**
 * Resolves an `Authorization` header to a token actor. Refuses a missing or malformed header, and
 * an unknown or revoked token (one message for both: nothing tells whether a token exists).
 * Records lastUsedAt at most once per LAST_USED_WRITE_INTERVAL_MS per token.
 */
export async function authenticateBearer(
  db: Db,
  authorization: string | null,
  options: { now?: Date } = {},
): Promise<Actor> {
  const token = parseBearerToken(authorization);
  const row = await db.apiToken.findUnique({
    where: { hash: hashToken(token) },
    select: { id: true, userId: true, scopes: true, lastUsedAt: true, revokedAt: true },
  });
  if (row === null || row.revokedAt !== null) {
    throw new AppError('UNAUTHENTICATED', INVALID_OR_REVOKED);
  }
  if (row.userId === null) {
    throw new AppError(
      'UNAUTHENTICATED',
      'this token was made before accounts and belongs to nobody; make a new one with `shadowbox token create --user NAME`',
    );
  }
  const person = await loadPerson(db, row.userId);
  if (person === null) throw new AppError('UNAUTHENTICATED', "this token's user is disabled");
  const now = options.now ?? new Date();
  const staleBefore = new Date(now.getTime() - LAST_USED_WRITE_INTERVAL_MS);
  if (row.lastUsedAt === null || row.lastUsedAt <= staleBefore) {
    // Conditional, so concurrent requests of the same minute write once between them.
    await db.apiToken.updateMany({
      where: {
        id: row.id,
        OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: staleBefore } }],
      },
      data: { lastUsedAt: now },
    });
  }
  return { kind: 'token', tokenId: row.id, scopes: storedScopes(row.scopes), person };
}

/**
 * Revokes a token (authentication refuses it from then on) and audits it. Idempotent: revoking a
 * revoked token changes nothing, writes no audit row and returns its original revokedAt.
 * NOT_FOUND for an unknown id.
 */
export async function revokeApiToken(
  db: Db,
  id: string,
  options: { actor?: Actor; now?: Date } = {},
): Promise<ApiTokenInfo & { readonly alreadyRevoked: boolean }> {
  const actor = options.actor ?? cliActor;
  const now = options.now ?? new Date();
  return inTransaction(db, async (tx) => {
    const existing = await tx.apiToken.findUnique({ where: { id }, select: { userId: true } });
    const notFound = new AppError('NOT_FOUND', `no API token with id ${JSON.stringify(id)}`);
    if (existing === null) throw notFound;
    // Someone else's token does not exist for a non-admin (by id: names can change).
    const person = personOf(actor);
    if (person !== null && person.role !== 'admin' && existing.userId !== person.id) {
      throw notFound;
    }
    const { count } = await tx.apiToken.updateMany({
      where: { id, revokedAt: null },
      data: { revokedAt: now },
    });
    const row = await tx.apiToken.findUnique({ where: { id }, select: infoSelect });
    if (row === null) throw notFound;
    if (count > 0) {
      await recordAudit(tx, {
        actor: actorLabel(actor),
        ...auditPerson(actor),
        action: 'token.revoke',
        target: `token:${id}`,
        ...(existing.userId === null ? {} : { subjectUserId: existing.userId }),
      });
    }
    return { ...toInfo(row), alreadyRevoked: count === 0 };
  });
}

/**
 * Tokens, oldest first, revoked ones included; never the hashes. A person sees their own; an
 * admin and the CLI see everyone's (or one user's, with `user`).
 */
export async function listApiTokens(
  db: Db,
  options: { actor?: Actor; user?: string } = {},
): Promise<ApiTokenInfo[]> {
  const actor = options.actor ?? cliActor;
  const person = personOf(actor);
  if (actor.kind === 'token') requireAdmin(actor, 'listing tokens');
  const own = person !== null && person.role !== 'admin';
  const user = own ? person.username : options.user;
  const rows = await db.apiToken.findMany({
    where: user === undefined ? {} : { user: { username: user.trim().toLowerCase() } },
    select: infoSelect,
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return rows.map(toInfo);
}
