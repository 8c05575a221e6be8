import type { Actor } from '../../auth';
import { AppError } from '../../errors/app-error';

/**
 * Eval runs spend the server's LLM budget and read repositories: reviewers and admins, signed in
 * (and the CLI). Authors and every token (an agent's above all) are refused.
 */
export function requireEvalRole(actor: Actor, what: string): void {
  if (actor.kind === 'cli') return;
  if (actor.kind === 'token') {
    throw new AppError('FORBIDDEN', `${what} needs a reviewer or admin signed in, not a token`);
  }
  if (actor.person.role === 'reviewer' || actor.person.role === 'admin') return;
  throw new AppError(
    'FORBIDDEN',
    `${what} needs a reviewer or an admin; ${actor.person.username} is an ${actor.person.role}`,
  );
}
