import { parseArgs } from 'node:util';
import {
  addPerson,
  disablePerson,
  listPeople,
  parseRole,
  parseUsername,
  renamePerson,
} from '../../auth';
import { exitCodes, type CliCommand } from '../cli-io';
import { readPassword } from '../read-password';
import { failWith, withDatabase } from './with-database';

const help = `Usage: shadowbox user add NAME --role admin|reviewer|author [--json]
       shadowbox user list [--json]
       shadowbox user disable NAME [--json]
       shadowbox user rename OLD NEW [--json]

Manages the people who sign in to the page (and own tokens and tasks), in the database named by
the environment (DATABASE_URL, else $SHADOWBOX_DATA_DIR/shadowbox.db).

add      Makes a person. The password is read as one line from standard input when that is not
         a terminal (printf '%s\\n' "$PASSWORD" | shadowbox user add alice --role reviewer),
         otherwise asked for twice without echo. At least 8 characters.
           admin     people, tokens and every task
           reviewer  approve, reject, comment, reopen; and what an author does
           author    create tasks, submit hypotheses, see their own and their teams' tasks
list     Prints every person: name, role, created, status.
disable  Stops a person signing in: their sessions end and their tokens are refused. Idempotent.
rename   Gives a person a new username (people cannot rename themselves). Their sessions, tokens,
         teams and tasks stay theirs; the audit log records it with their id.

Exit status: 0 done; 2 invalid arguments, a taken or unknown name; 1 database failure.
`;

export const userCommand: CliCommand = async (args, io) => {
  const json = args.includes('--json');
  const refuse = (message: string): number =>
    failWith(io, 'user', json, { code: 'INVALID_ARGUMENT', message: `${message}; see --help` });
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        role: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return refuse((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [sub, name, ...rest] = positionals;
  // Only rename takes a second name.
  const [newName, ...extra] = sub === 'rename' ? rest : [undefined, ...rest];
  if (values.help === true || sub === 'help') {
    io.stdout.write(help);
    return exitCodes.ok;
  }
  if (extra.length > 0) return refuse(`unexpected argument '${extra[0] ?? ''}'`);
  switch (sub) {
    case 'add': {
      if (name === undefined) return refuse('user add needs a NAME');
      if (values.role === undefined) return refuse('--role is required: admin, reviewer or author');
      let username: string;
      let role;
      try {
        // Checked before the password is asked for, so a typo costs nothing.
        username = parseUsername(name);
        role = parseRole(values.role);
      } catch (error) {
        return failWith(io, 'user', json, error as { code: 'INVALID_ARGUMENT'; message: string });
      }
      return withDatabase(io, 'user', json, async (db) => {
        const password = await readPassword(io.stdin, io.stderr);
        const person = await addPerson(db, { username, password, role });
        if (json) io.stdout.write(`${JSON.stringify({ username: person.username, role })}\n`);
        else io.stdout.write(`added ${person.username} (${role})\n`);
      });
    }
    case 'list': {
      if (name !== undefined) return refuse(`unexpected argument '${name}'`);
      return withDatabase(io, 'user', json, async (db) => {
        const people = await listPeople(db);
        if (json) {
          io.stdout.write(
            `${JSON.stringify(
              people.map((p) => ({
                username: p.username,
                role: p.role,
                createdAt: p.createdAt.toISOString(),
                disabledAt: p.disabledAt?.toISOString() ?? null,
              })),
            )}\n`,
          );
          return;
        }
        if (people.length === 0) {
          io.stderr.write(
            "nobody has an account; add one with 'shadowbox user add NAME --role admin'\n",
          );
          return;
        }
        for (const p of people) {
          const status =
            p.disabledAt === null ? 'active' : `disabled ${p.disabledAt.toISOString()}`;
          io.stdout.write(`${p.username}\t${p.role}\t${p.createdAt.toISOString()}\t${status}\n`);
        }
      });
    }
    case 'disable': {
      if (name === undefined) return refuse('user disable needs a NAME');
      return withDatabase(io, 'user', json, async (db) => {
        const person = await disablePerson(db, name);
        if (json) {
          io.stdout.write(
            `${JSON.stringify({ username: person.username, alreadyDisabled: person.alreadyDisabled })}\n`,
          );
        } else {
          io.stdout.write(
            person.alreadyDisabled
              ? `${person.username} was already disabled\n`
              : `disabled ${person.username}: their sessions ended and their tokens are refused\n`,
          );
        }
      });
    }
    case 'rename': {
      if (name === undefined || newName === undefined) return refuse('user rename needs OLD NEW');
      return withDatabase(io, 'user', json, async (db) => {
        const person = await renamePerson(db, { from: name, to: newName });
        if (json) {
          io.stdout.write(
            `${JSON.stringify({ id: person.id, from: person.previousUsername, username: person.username })}\n`,
          );
        } else {
          io.stdout.write(`renamed ${person.previousUsername} to ${person.username}\n`);
        }
      });
    }
    case undefined:
      return refuse('missing subcommand: add, list, disable or rename');
    default:
      return refuse(`unknown subcommand '${sub}': use add, list, disable or rename`);
  }
};
