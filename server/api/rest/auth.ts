import { requireTokenScope } from '../../auth';
import type { Actor } from '../../tasks/task-api';
import type { RestRuntime } from './handler';

/** The caller behind `Authorization: Bearer …`; the runtime refuses with UNAUTHENTICATED (401). */
export function authenticate(request: Request, runtime: RestRuntime): Promise<Actor> {
  return runtime.authenticate(request.headers.get('authorization'));
}

/**
 * Reviewing needs a token with the `reviewer` scope. The task service checks the owner's rights
 * too; the transport refuses early so an agent token gets a clear 403 before its body is read.
 */
export function requireReviewerScope(actor: Actor): void {
  requireTokenScope(actor, 'reviewer');
}
