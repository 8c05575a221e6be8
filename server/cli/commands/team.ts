import { parseArgs } from 'node:util';
import { addTeam, parseRole, setTeamMember } from '../../auth';
import { exitCodes, type CliCommand } from '../cli-io';
import { failWith, withDatabase } from './with-database';

const help = `Usage: shadowbox team add TEAM
       shadowbox team member TEAM USER --role admin|reviewer|author

Teams share tasks: a task created with "team": TEAM is seen by the team's members, who act on it
with their member role (never above their own role).

Exit status: 0 done; 2 invalid arguments, a taken or unknown name; 1 database failure.
`;

export const teamCommand: CliCommand = async (args, io) => {
  const refuse = (message: string): number =>
    failWith(io, 'team', false, { code: 'INVALID_ARGUMENT', message: `${message}; see --help` });
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { role: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    return refuse((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [sub, team, user, ...extra] = positionals;
  if (values.help === true || sub === 'help') {
    io.stdout.write(help);
    return exitCodes.ok;
  }
  if (extra.length > 0) return refuse(`unexpected argument '${extra[0] ?? ''}'`);
  if (sub === 'add') {
    if (team === undefined || user !== undefined) return refuse('team add takes one TEAM');
    return withDatabase(io, 'team', false, async (db) => {
      const made = await addTeam(db, team);
      io.stdout.write(`added team ${made.name}\n`);
    });
  }
  if (sub === 'member') {
    if (team === undefined || user === undefined) return refuse('team member needs TEAM and USER');
    if (values.role === undefined) return refuse('--role is required: admin, reviewer or author');
    const role = values.role;
    return withDatabase(io, 'team', false, async (db) => {
      const member = await setTeamMember(db, { team, username: user, role: parseRole(role) });
      io.stdout.write(`${member.username} is ${member.role} in ${member.team}\n`);
    });
  }
  return refuse(
    sub === undefined ? 'missing subcommand: add or member' : `unknown subcommand '${sub}'`,
  );
};
