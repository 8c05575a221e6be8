import type { Actor } from '../../../auth';
import { AppError } from '../../../errors/app-error';
import type { Runtime } from '../../../runtime';

/** The signed-in person of a browser route (upload, download); UNAUTHENTICATED (401) without one. */
export async function requireSession(
  runtime: Pick<Runtime, 'accounts'>,
  headers: Headers,
): Promise<Actor> {
  const actor = await runtime.accounts.sessionActor(headers);
  if (actor === null) throw new AppError('UNAUTHENTICATED', 'sign in first');
  return actor;
}
