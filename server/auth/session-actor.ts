import type { Db } from '../db/client';
import type { Actor } from './actor';
import type { Auth } from './auth';
import { loadPerson } from './people';

/**
 * The signed-in person behind a browser request (better-auth's session cookie), or null: no
 * cookie, an expired or deleted session, or a person disabled since they signed in.
 */
export async function sessionActor(auth: Auth, db: Db, headers: Headers): Promise<Actor | null> {
  const session = await auth.api.getSession({ headers });
  if (session === null) return null;
  const person = await loadPerson(db, session.user.id);
  return person === null ? null : { kind: 'user', person };
}
