import { AppError } from '../errors/app-error';
import { lowerRole, tokenScopes, type Actor, type Role, type Scope } from './actor';

/**
 * What an actor may do to a task, in one place. A person acts on their own tasks with their role,
 * on a team's tasks with their role in that team (never above their own), and on nobody else's
 * (an admin acts on every task). A token acts as its owner, narrowed to its scopes. A task the
 * actor may not see does not exist for them: NOT_FOUND, the same answer as for a missing task.
 */
export type TaskRight = 'see' | 'submit' | 'cancel' | 'comment' | 'review' | 'reopen' | 'steer';

/** `comment`: write in review threads (and reply to them); `review`: verdicts, resolving threads. */
const authorRights: readonly TaskRight[] = ['see', 'submit', 'cancel', 'comment'];

const roleRights: Readonly<Record<Role, ReadonlySet<TaskRight>>> = {
  author: new Set(authorRights),
  reviewer: new Set([...authorRights, 'review', 'reopen', 'steer']),
  admin: new Set([...authorRights, 'review', 'reopen', 'steer']),
};

const scopeRights: Readonly<Record<Scope, readonly TaskRight[]>> = {
  agent: ['see', 'submit', 'cancel', 'comment', 'steer'],
  reviewer: ['see', 'comment', 'review', 'reopen', 'steer'],
};

/** The scopes a person of `role` may give their tokens. */
export function scopesAllowed(role: Role): readonly Scope[] {
  return role === 'author' ? ['agent'] : tokenScopes;
}

/** The scopes whose tokens carry `right` (the transports refuse early with it). */
export function scopesGranting(right: TaskRight): readonly Scope[] {
  return tokenScopes.filter((scope) => scopeRights[scope].includes(right));
}

/** Who a task belongs to: what its rights depend on. */
export interface TaskOwnership {
  readonly ownerId: string | null;
  readonly teamId: string | null;
}

const none: ReadonlySet<TaskRight> = new Set();
const all: ReadonlySet<TaskRight> = roleRights.admin;

/** The role the actor's person has on the task, or null when it is none of theirs. */
function roleOn(actor: Exclude<Actor, { kind: 'cli' }>, task: TaskOwnership): Role | null {
  const { person } = actor;
  if (person.role === 'admin') return 'admin';
  if (task.ownerId !== null && task.ownerId === person.id) return person.role;
  const membership = person.teams.find((team) => team.teamId === task.teamId);
  return membership === undefined ? null : lowerRole(person.role, membership.role);
}

export function taskRights(actor: Actor, task: TaskOwnership): ReadonlySet<TaskRight> {
  if (actor.kind === 'cli') return all;
  const role = roleOn(actor, task);
  if (role === null) return none;
  // `steer` (send to review now, accept known failures) is the task's owner's as well: it decides
  // what their own task waits for, never what is approved.
  const owner = task.ownerId !== null && task.ownerId === actor.person.id;
  const rights = owner ? new Set([...roleRights[role], 'steer' as const]) : roleRights[role];
  if (actor.kind === 'user') return rights;
  const granted = new Set(actor.scopes.flatMap((scope) => scopeRights[scope]));
  return new Set([...rights].filter((right) => granted.has(right)));
}

const needs: Readonly<Record<Exclude<TaskRight, 'see'>, string>> = {
  submit:
    'submitting hypotheses needs an author, reviewer or admin, or a token with the "agent" scope',
  cancel:
    'cancelling needs the task\'s author, a reviewer or an admin, or a token with the "agent" scope',
  comment:
    'commenting needs an author, reviewer or admin of the task, or a token with the "agent" or "reviewer" scope',
  review:
    'reviewing (approve, reject, request changes, resolve) needs a reviewer or an admin, or their token with the "reviewer" scope',
  reopen:
    'reopening an approved task needs a reviewer or an admin, or their token with the "reviewer" scope',
  steer:
    "sending a task to review now or accepting its known failures needs the task's owner, a reviewer or an admin",
};

/**
 * Refuses unless the actor has `right` on the task: NOT_FOUND when they may not even see it,
 * FORBIDDEN (naming what is needed) when they see it but may not do this.
 */
export function requireTaskRight(
  actor: Actor,
  task: TaskOwnership & { readonly id: string },
  right: TaskRight,
): void {
  const rights = taskRights(actor, task);
  if (!rights.has('see')) throw new AppError('NOT_FOUND', `no task ${task.id}`);
  if (right === 'see' || rights.has(right)) return;
  throw new AppError('FORBIDDEN', needs[right], { details: { taskId: task.id, right } });
}

/** Creating a task needs a person (any role) or a token with the `agent` scope. */
export function requireCanCreateTasks(actor: Actor): void {
  if (actor.kind === 'token' && !actor.scopes.includes('agent')) {
    throw new AppError('FORBIDDEN', 'creating tasks needs a token with the "agent" scope');
  }
}

/** Which tasks a list shows: every one, or those owned by the person or shared with a team. */
export type TaskVisibility =
  | { readonly all: true }
  | { readonly all: false; readonly ownerId: string; readonly teamIds: readonly string[] };

export function taskVisibility(actor: Actor): TaskVisibility {
  if (actor.kind === 'cli' || actor.person.role === 'admin') return { all: true };
  return {
    all: false,
    ownerId: actor.person.id,
    teamIds: actor.person.teams.map((team) => team.teamId),
  };
}

/** People, other people's tokens and the audit log are the admin's (and the CLI's). */
export function requireAdmin(actor: Actor, what: string): void {
  if (actor.kind === 'cli') return;
  if (actor.kind === 'user' && actor.person.role === 'admin') return;
  throw new AppError(
    'FORBIDDEN',
    actor.kind === 'token'
      ? `${what} needs an admin signed in, not a token`
      : `${what} needs an admin; ${actor.person.username} is ${actor.person.role === 'author' ? 'an' : 'a'} ${actor.person.role}`,
  );
}

/** FORBIDDEN for a token without `scope` (a person and the CLI act with their role). */
export function requireTokenScope(actor: Actor, scope: Scope): void {
  if (actor.kind !== 'token' || actor.scopes.includes(scope)) return;
  throw new AppError(
    'FORBIDDEN',
    `this token lacks the '${scope}' scope (its scopes: ${actor.scopes.join(', ') || 'none'})`,
    { details: { tokenId: actor.tokenId, scope } },
  );
}
