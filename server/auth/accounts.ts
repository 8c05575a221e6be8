import { listAudit, type AuditEntry } from '../audit/audit-log';
import type { Db } from '../db/client';
import type { Actor, Scope } from './actor';
import {
  authenticateBearer,
  createApiToken,
  listApiTokens,
  revokeApiToken,
  type ApiTokenInfo,
  type CreatedApiToken,
} from './api-tokens';
import { createAuth, type Auth } from './auth';
import { addPerson, listPeople, personIdOf, renamePerson, type PersonInfo } from './people';
import { requireAdmin } from './permissions';
import { sessionActor } from './session-actor';
import { checkSetupLink, createSetupLink, redeemSetupLink, setupLinkUrl } from './setup-link';
import type { Role } from './actor';

/**
 * The accounts service the transports use: who a request is (session cookie or bearer token),
 * the first-run link, people's own tokens, and the admin's views (people, the audit log).
 */
export interface Accounts {
  /** better-auth: `/api/auth/*` (sign-in, sign-out, session) is `auth.handler`. */
  readonly auth: Auth;
  /** The signed-in person of a browser request; null without a valid session. */
  sessionActor(headers: Headers): Promise<Actor | null>;
  /** Resolves `Authorization: Bearer …` to its token actor; UNAUTHENTICATED otherwise. */
  authenticate(authorization: string | null): Promise<Actor>;
  /** Prints the one-time set-up link when nobody has an account yet; returns it (or null). */
  announceSetupLink(print: (line: string) => void): Promise<string | null>;
  checkSetupLink(secret: string): Promise<boolean>;
  redeemSetupLink(input: {
    secret: string;
    username: string;
    password: string;
  }): Promise<PersonInfo>;
  listTokens(actor: Actor): Promise<ApiTokenInfo[]>;
  createToken(
    actor: Actor,
    input: { scopes: readonly Scope[]; name?: string },
  ): Promise<CreatedApiToken>;
  revokeToken(actor: Actor, id: string): Promise<ApiTokenInfo>;
  listPeople(actor: Actor): Promise<PersonInfo[]>;
  addPerson(
    actor: Actor,
    input: { username: string; password: string; role: Role },
  ): Promise<PersonInfo>;
  /** Renames a person (admins only; nobody renames themselves), audited with their id. */
  renamePerson(actor: Actor, input: { from: string; to: string }): Promise<PersonInfo>;
  /**
   * The audit log, newest first, filtered by task and person (admins only): a person's rows are
   * what they did and what was done to them, found by id, so they hold across renames.
   */
  listAudit(
    actor: Actor,
    filter: { taskId?: string; username?: string; limit?: number },
  ): Promise<AuditEntry[]>;
}

export interface AccountsOptions {
  readonly db: Db;
  readonly provider: 'sqlite' | 'postgresql';
  readonly secret: string;
  readonly baseUrl: string;
  readonly trustedOrigins: readonly string[];
}

export function createAccounts(options: AccountsOptions): Accounts {
  const { db } = options;
  const auth = createAuth(options);
  return {
    auth,
    sessionActor: (headers) => sessionActor(auth, db, headers),
    authenticate: (authorization) => authenticateBearer(db, authorization),
    async announceSetupLink(print) {
      const link = await createSetupLink(db);
      if (link === null) return null;
      const url = setupLinkUrl(options.baseUrl, link.secret);
      print(
        `shadowbox: nobody has an account yet. Create the first admin, once, within the hour, at:\n\n    ${url}\n`,
      );
      return url;
    },
    checkSetupLink: (secret) => checkSetupLink(db, secret),
    redeemSetupLink: (input) => redeemSetupLink(db, input),
    listTokens: (actor) => listApiTokens(db, { actor }),
    createToken(actor, input) {
      // People make tokens for themselves on the page; the CLI makes anyone's.
      const user = actor.kind === 'cli' ? '' : actor.person.username;
      return createApiToken(db, { ...input, user, actor });
    },
    revokeToken: (actor, id) => revokeApiToken(db, id, { actor }),
    listPeople: (actor) => listPeople(db, actor),
    addPerson(actor, input) {
      requireAdmin(actor, 'adding people');
      return addPerson(db, { ...input, actor });
    },
    renamePerson: (actor, input) => renamePerson(db, { ...input, actor }),
    async listAudit(actor, filter) {
      requireAdmin(actor, 'reading the audit log');
      const person =
        filter.username === undefined ? undefined : await personIdOf(db, filter.username);
      return listAudit(db, {
        ...(filter.taskId === undefined ? {} : { target: filter.taskId }),
        ...(person === undefined ? {} : { personId: person.id }),
        ...(filter.limit === undefined ? {} : { limit: filter.limit }),
      });
    },
  };
}
