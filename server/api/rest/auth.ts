import { AppError } from '../../errors/app-error';
import type { Actor } from '../../tasks/task-api';
import type { RestRuntime } from './handler';

/** The caller behind `Authorization: Bearer …`; the runtime refuses with UNAUTHENTICATED (401). */
export function authenticate(request: Request, runtime: RestRuntime): Promise<Actor> {
  return runtime.authenticate(request.headers.get('authorization'));
}

/**
 * Reviewing needs a token with the `reviewer` scope. The task service checks this too; the
 * transport refuses early so an agent token gets a clear 403 before its body is even read.
 */
export function requireReviewerScope(actor: Actor): void {
  if (actor.kind === 'token' && !actor.scopes.includes('reviewer')) {
    const scopes = actor.scopes.length === 0 ? 'none' : actor.scopes.join(', ');
    throw new AppError(
      'FORBIDDEN',
      `reviewing a task needs a token with the "reviewer" scope (this token's scopes: ${scopes})`,
    );
  }
}
