import { recordAudit } from '../audit/audit-log';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import { AppError } from '../errors/app-error';
import { auditedAs, cliActor, lowerRole, type Actor, type Role } from './actor';
import { personIdOf } from './people';
import { requireAdmin } from './permissions';

/** Teams share tasks: each member acts on the team's tasks with their member role. */

const teamNamePattern = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export function parseTeamName(name: string): string {
  const normal = name.trim().toLowerCase();
  if (!teamNamePattern.test(normal)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `invalid team name ${JSON.stringify(name)}: use 1 to 64 lower-case letters, digits, '.', '_' or '-'`,
    );
  }
  return normal;
}

export async function addTeam(
  db: Db,
  name: string,
  actor: Actor = cliActor,
): Promise<{ id: string; name: string }> {
  requireAdmin(actor, 'making teams');
  const team = parseTeamName(name);
  return inTransaction(db, async (tx) => {
    if ((await tx.team.findUnique({ where: { name: team } })) !== null) {
      throw new AppError('CONFLICT', `a team named ${team} already exists`);
    }
    const row = await tx.team.create({ data: { name: team }, select: { id: true, name: true } });
    await recordAudit(tx, { ...auditedAs(actor), action: 'team.add', target: `team:${team}` });
    return row;
  });
}

/**
 * Adds a person to a team (or changes their member role). The member role is capped at the
 * person's own role: a team cannot make an author a reviewer.
 */
export async function setTeamMember(
  db: Db,
  input: { team: string; username: string; role: Role; actor?: Actor },
): Promise<{ team: string; username: string; role: Role }> {
  const actor = input.actor ?? cliActor;
  requireAdmin(actor, 'changing team members');
  const teamName = parseTeamName(input.team);
  const team = await db.team.findUnique({ where: { name: teamName }, select: { id: true } });
  if (team === null) throw new AppError('NOT_FOUND', `no team named ${teamName}`);
  const person = await personIdOf(db, input.username);
  if (lowerRole(person.role, input.role) !== input.role) {
    throw new AppError(
      'FORBIDDEN',
      `${input.username} is ${person.role === 'author' ? 'an' : 'a'} ${person.role}: a team role cannot be above it`,
    );
  }
  await inTransaction(db, async (tx) => {
    await tx.teamMember.upsert({
      where: { teamId_userId: { teamId: team.id, userId: person.id } },
      create: { teamId: team.id, userId: person.id, role: input.role },
      update: { role: input.role },
    });
    await recordAudit(tx, {
      ...auditedAs(actor),
      action: 'team.member',
      target: `team:${teamName}`,
      subjectUserId: person.id,
      details: { username: input.username, role: input.role },
    });
  });
  return { team: teamName, username: input.username, role: input.role };
}

/** The id of a team the actor's person belongs to (tasks are shared only with one's own teams). */
export async function teamIdFor(db: Db, name: string, actor: Actor): Promise<string> {
  const teamName = parseTeamName(name);
  const team = await db.team.findUnique({ where: { name: teamName }, select: { id: true } });
  const member =
    team !== null &&
    (actor.kind === 'cli' ||
      actor.person.role === 'admin' ||
      actor.person.teams.some((t) => t.teamId === team.id));
  if (team === null || !member) {
    throw new AppError('NOT_FOUND', `no team named ${teamName} that you belong to`);
  }
  return team.id;
}
