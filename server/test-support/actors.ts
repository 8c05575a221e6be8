import type { Db } from '../db/client';
import { addPerson, loadPerson, type Actor, type Person, type Role, type Scope } from '../auth';
import { testPassword } from './test-password';

/**
 * Who asks, for tests. Unit tests (fakes, no database) use `fakeUser`/`fakeToken`; tests on a real
 * database make real people (`userIn`, `tokenIn`), since a task's owner is a foreign key. The CLI
 * actor (`cliActor` from server/auth) sees and does everything.
 */

export function fakePerson(username: string, role: Role = 'author'): Person {
  return { id: `user-${username}`, username, role, teams: [] };
}

export function fakeUser(username: string, role: Role = 'author'): Actor {
  return { kind: 'user', person: fakePerson(username, role) };
}

export function fakeToken(
  username: string,
  scopes: readonly Scope[],
  role: Role = scopes.includes('reviewer') ? 'reviewer' : 'author',
): Actor {
  return {
    kind: 'token',
    tokenId: `token-${username}`,
    scopes,
    person: fakePerson(username, role),
  };
}

/** A real person in `db` (made if missing) acting through the page. */
export async function userIn(db: Db, username: string, role: Role = 'author'): Promise<Actor> {
  return { kind: 'user', person: await personIn(db, username, role) };
}

/** A real person in `db` (made if missing) acting through a token with `scopes`. */
export async function tokenIn(
  db: Db,
  username: string,
  scopes: readonly Scope[],
  role: Role = scopes.includes('reviewer') ? 'reviewer' : 'author',
): Promise<Actor> {
  return {
    kind: 'token',
    tokenId: `token-${username}`,
    scopes,
    person: await personIn(db, username, role),
  };
}

/**
 * A team of real people (made in `db` if missing, with the same role on the server), each with
 * their role in it: the tasks shared with the team are theirs to see and act on. An actor carries
 * the teams its person had when it was made, so make the actors after the team.
 */
export async function teamIn(
  db: Db,
  name: string,
  members: Readonly<Record<string, Role>>,
): Promise<void> {
  const team = await db.team.create({ data: { name } });
  for (const [username, role] of Object.entries(members)) {
    const person = await personIn(db, username, role);
    await db.teamMember.create({ data: { teamId: team.id, userId: person.id, role } });
  }
}

async function personIn(db: Db, username: string, role: Role): Promise<Person> {
  const existing = await db.user.findUnique({ where: { username }, select: { id: true } });
  const id = existing?.id ?? (await addPerson(db, { username, password: testPassword, role })).id;
  const person = await loadPerson(db, id);
  if (person === null) throw new Error(`${username} is disabled`);
  return person;
}
