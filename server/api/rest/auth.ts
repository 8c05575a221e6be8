import { requireTokenScope, scopesGranting } from '../../auth';
import { AppError } from '../../errors/app-error';
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

const commentScopes = scopesGranting('comment');

/**
 * Commenting in a review (a `comment` verdict) needs a token with a scope that carries the
 * `comment` right (`agent` or `reviewer`); the review service checks the person's rights too.
 */
export function requireCommentScope(actor: Actor): void {
  if (actor.kind !== 'token' || actor.scopes.some((scope) => commentScopes.includes(scope))) {
    return;
  }
  throw new AppError(
    'FORBIDDEN',
    `commenting needs a token with the ${commentScopes.map((scope) => `'${scope}'`).join(' or the ')} scope (its scopes: ${actor.scopes.join(', ') || 'none'})`,
    { details: { tokenId: actor.tokenId, anyOf: commentScopes } },
  );
}
