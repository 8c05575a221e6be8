/**
 * Who asks. A person signs in (a session cookie) or sends one of their tokens; the CLI, run on the
 * server's own machine with the database in reach, acts as the machine's administrator.
 */

/** What a person may do, lowest first: an author creates and drives tasks, a reviewer also
 * approves, rejects and reopens them, an admin also manages people, tokens and every task. */
export const roles = ['author', 'reviewer', 'admin'] as const;

export type Role = (typeof roles)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (roles as readonly string[]).includes(value);
}

/** The lower of two roles (a team role never lifts a person above their own). */
export function lowerRole(a: Role, b: Role): Role {
  return roles.indexOf(a) <= roles.indexOf(b) ? a : b;
}

/** What a token may be used for, in the canonical order scopes are stored and shown in; never
 * more than its owner's role allows. */
export const tokenScopes = ['agent', 'reviewer'] as const;

export type Scope = (typeof tokenScopes)[number];

export interface TeamRole {
  readonly teamId: string;
  readonly role: Role;
}

/** A signed-in person, as read when the request was authenticated. */
export interface Person {
  readonly id: string;
  readonly username: string;
  readonly role: Role;
  readonly teams: readonly TeamRole[];
}

export type Actor =
  | { readonly kind: 'user'; readonly person: Person }
  | {
      readonly kind: 'token';
      readonly tokenId: string;
      readonly scopes: readonly Scope[];
      readonly person: Person;
    }
  | { readonly kind: 'cli' };

/** The actor of the command line (the server machine's administrator). */
export const cliActor: Actor = { kind: 'cli' };

/** The person behind an actor; null for the CLI. */
export function personOf(actor: Actor): Person | null {
  return actor.kind === 'cli' ? null : actor.person;
}

/** How an actor is written in audit rows, events and `author`/`reviewer` columns. */
export function actorLabel(actor: Actor): string {
  switch (actor.kind) {
    case 'user':
      return actor.person.username;
    case 'token':
      return `${actor.person.username} (token:${actor.tokenId})`;
    case 'cli':
      return 'cli';
  }
}

/** The audit row's who: the label, and the person to filter by. */
export function auditedAs(actor: Actor): { actor: string; actorUserId?: string } {
  const person = personOf(actor);
  return person === null
    ? { actor: actorLabel(actor) }
    : { actor: actorLabel(actor), actorUserId: person.id };
}
