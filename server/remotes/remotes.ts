import { actorLabel, auditedAs, type Actor } from '../auth/actor';
import { recordAudit } from '../audit/audit-log';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import type { GitUrlPolicy } from '../engine/intake';
import { forgeKinds, isForgeKind, type ForgeKind } from '../engine/landing';
import { AppError } from '../errors/app-error';
import type { SecretBox } from './secret-box';

/** A remote as people see it: never its credential. */
export interface RemoteInfo {
  readonly name: string;
  readonly url: string;
  readonly username: string | null;
  /** Whose pull requests a push may open: github | gitea; null: push only. */
  readonly forge: ForgeKind | null;
  readonly createdBy: string;
  readonly createdAt: Date;
}

/** A remote as the page offers it to a reviewer. */
export type RemoteSummary = Pick<RemoteInfo, 'name' | 'url' | 'forge'>;

/** What a push needs: the remote, and its credential opened for this one use. */
export interface RemoteCredential {
  readonly id: string;
  readonly name: string;
  readonly url: string;
  readonly username: string | null;
  readonly forge: ForgeKind | null;
  readonly secret: string;
}

export interface RemoteDeps {
  readonly db: Db;
  readonly box: SecretBox;
  /** The policy of Git URLs: a remote's host must pass it as a source's would. */
  readonly gitPolicy: GitUrlPolicy;
}

const namePattern = /^[a-z0-9][a-z0-9._-]{0,39}$/;
const maxSecret = 4096;

export function checkRemoteName(name: string): string {
  if (!namePattern.test(name)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `remote name ${JSON.stringify(name.slice(0, 60))} must be 1–40 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
  return name;
}

/**
 * Adds (or replaces) a remote: its URL passes the policy of Git URLs now (https, a public
 * address or a forge SHADOWBOX_GIT_ALLOW names, no credentials in it); its secret is sealed.
 * Administrators only; audited without the secret.
 */
export async function addRemote(
  deps: RemoteDeps,
  input: {
    name: string;
    url: string;
    username?: string | undefined;
    forge?: string | undefined;
    secret: string;
  },
  actor: Actor,
): Promise<RemoteInfo> {
  requireAdmin(actor);
  const name = checkRemoteName(input.name);
  const checked = await deps.gitPolicy.check(input.url);
  if (!checked.ok) {
    throw new AppError(checked.error.code, `remote ${name}: ${checked.error.message}`);
  }
  const username = input.username?.trim() === '' ? undefined : input.username?.trim();
  if (username !== undefined && !/^[^\s:]{1,200}$/.test(username)) {
    throw new AppError('INVALID_ARGUMENT', 'a remote username has no spaces or colons (≤ 200)');
  }
  if (input.secret === '' || input.secret.length > maxSecret || /[\r\n]/.test(input.secret)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `the password or token must be one line of 1–${maxSecret} characters`,
    );
  }
  const forge = input.forge ?? null;
  if (forge !== null && !isForgeKind(forge)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `forge ${JSON.stringify(forge.slice(0, 40))} is not one of ${forgeKinds.join(', ')}`,
    );
  }
  const data = {
    url: checked.url.href,
    forge,
    username: username ?? null,
    secretBox: deps.box.seal(input.secret, name),
    createdBy: actorLabel(actor),
  };
  const row = await inTransaction(deps.db, async (tx) => {
    const saved = await tx.remote.upsert({
      where: { name },
      create: { name, ...data },
      update: data,
    });
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: 'remote.add',
      target: `remote:${name}`,
      details: { url: data.url, username: data.username, forge },
    });
    return saved;
  });
  return infoOf(row);
}

export async function listRemotes(db: Db): Promise<RemoteInfo[]> {
  const rows = await db.remote.findMany({ orderBy: { name: 'asc' } });
  return rows.map(infoOf);
}

export async function removeRemote(deps: Pick<RemoteDeps, 'db'>, name: string, actor: Actor) {
  requireAdmin(actor);
  await inTransaction(deps.db, async (tx) => {
    const { count } = await tx.remote.deleteMany({ where: { name: checkRemoteName(name) } });
    if (count === 0) throw new AppError('NOT_FOUND', `no remote named ${name}`);
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: 'remote.remove',
      target: `remote:${name}`,
    });
  });
}

/** The remote with its secret opened: for a push, never for a view. */
export async function remoteCredential(
  deps: Pick<RemoteDeps, 'db' | 'box'>,
  name: string,
): Promise<RemoteCredential> {
  const row = await deps.db.remote.findUnique({ where: { name: checkRemoteName(name) } });
  if (row === null) throw new AppError('NOT_FOUND', `no remote named ${name}`);
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    username: row.username,
    forge: forgeOf(row.forge),
    secret: deps.box.open(row.secretBox, row.name),
  };
}

function requireAdmin(actor: Actor): void {
  if (actor.kind === 'cli' || (actor.kind === 'user' && actor.person.role === 'admin')) return;
  throw new AppError('FORBIDDEN', 'only administrators configure remotes');
}

function forgeOf(value: string | null): ForgeKind | null {
  return isForgeKind(value) ? value : null;
}

function infoOf(row: {
  name: string;
  url: string;
  username: string | null;
  forge: string | null;
  createdBy: string;
  createdAt: Date;
}): RemoteInfo {
  return {
    name: row.name,
    url: row.url,
    username: row.username,
    forge: forgeOf(row.forge),
    createdBy: row.createdBy,
    createdAt: row.createdAt,
  };
}

/**
 * The credential of the remote configured for exactly this repository (same scheme, host, port
 * and path, `.git` or not), to clone a team's private repository with; null when none is.
 */
export async function credentialForSource(
  deps: Pick<RemoteDeps, 'db' | 'box'>,
  url: string,
): Promise<{ username: string; secret: string } | null> {
  const wanted = repositoryKey(url);
  if (wanted === null) return null;
  const rows = await deps.db.remote.findMany({ orderBy: { name: 'asc' } });
  const row = rows.find((candidate) => repositoryKey(candidate.url) === wanted);
  if (row === undefined) return null;
  return { username: row.username ?? 'shadowbox', secret: deps.box.open(row.secretBox, row.name) };
}

function repositoryKey(url: string): string | null {
  const parsed = URL.parse(url);
  if (parsed === null) return null;
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\.git$/, '');
  return `${parsed.protocol}//${parsed.host.toLowerCase()}${path}`;
}
