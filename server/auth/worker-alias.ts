import { createHash } from 'node:crypto';
import type { Actor } from './actor';

/**
 * Which machine and process runs what is the operator's business: a worker's host name and pid
 * (and its id, which is `host:pid:nonce`) point an attacker at a target. Admins (and the CLI) see
 * them; everyone else sees each worker under a stable opaque id, with its load and state only.
 */
export function seesWorkerHosts(actor: Actor): boolean {
  // As requireAdmin: a token acts with its scopes, never as its admin.
  return actor.kind === 'cli' || (actor.kind === 'user' && actor.person.role === 'admin');
}

/** The id a non-admin knows a worker by; the same in the workers list and in task views. */
export function workerAlias(workerId: string): string {
  return `worker-${createHash('sha256').update(workerId).digest('hex').slice(0, 12)}`;
}

export function workerIdFor(actor: Actor, workerId: string | null): string | null {
  if (workerId === null || seesWorkerHosts(actor)) return workerId;
  return workerAlias(workerId);
}
