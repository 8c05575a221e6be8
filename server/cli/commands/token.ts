import { parseArgs } from 'node:util';
import {
  createApiToken,
  listApiTokens,
  parseScopes,
  parseTokenName,
  revokeApiToken,
  type ApiTokenInfo,
} from '../../auth/api-tokens';
import { createDb, type Db } from '../../db/client';
import { migrateDatabase } from '../../db/migrate';
import { loadEnv } from '../../env';
import { httpStatusOf, isAppError, type AppErrorCode } from '../../errors/app-error';
import { exitCodes, type CliCommand, type CliIo } from '../cli-io';

const help = `Usage: shadowbox token create --user NAME --scopes SCOPE[,SCOPE] [--name NAME] [--json]
       shadowbox token list [--user NAME] [--json]
       shadowbox token revoke ID [--json]

Manages the API tokens that agents and reviewers send as 'Authorization: Bearer <token>'.
Uses the database named by the environment (DATABASE_URL, else $SHADOWBOX_DATA_DIR/shadowbox.db,
default ./data) and applies pending migrations first, so it works on a fresh machine.

create  Makes a token for a person (see 'shadowbox user'): it acts as them, on their tasks and
        their teams' tasks, never beyond their role. The token is printed ONCE, alone on its
        line on stdout, so TOKEN=$(shadowbox token create --user bob --scopes agent) captures
        exactly the token; its id, name and scopes go to stderr. Only its SHA-256 is stored.
          --user NAME      the person the token belongs to (required)
          --scopes SCOPES  comma-separated, or the option repeated: agent (create tasks, submit
                           hypotheses), reviewer (approve, reject, reopen; reviewers and
                           admins only)
          --name NAME      a label shown by 'list' (default: unnamed)
          --json           print {"id","token","name","scopes"} on stdout instead
list    Prints every token, or one person's with --user (never the token itself): id, user,
        name, scopes, created, last used (recorded at most once a minute) and status. --json: an
        array of {"id","user","name","scopes","createdAt","lastUsedAt","revokedAt"}.
revoke  Revokes the token with that id (as shown by create and list); requests bearing it are
        refused from then on. Revoking a revoked token changes nothing and succeeds.
        --json: {"id","name","scopes","createdAt","lastUsedAt","revokedAt","alreadyRevoked"}.

Token creation and revocation are recorded in the audit log (actor "cli").
With --json, a failure prints {"error":{"code","message"}} on stdout.

Exit status: 0 done; 2 invalid arguments, an unknown user or token id, or scopes beyond the
user's role; 1 database failure.
`;

type Parsed =
  | {
      sub: 'create';
      user: string;
      scopes: ReturnType<typeof parseScopes>;
      name: string;
      json: boolean;
    }
  | { sub: 'list'; user: string | undefined; json: boolean }
  | { sub: 'revoke'; id: string; json: boolean }
  | { sub: 'help' };

class UsageError extends Error {}

function fail(io: CliIo, json: boolean, error: { code: AppErrorCode; message: string }): number {
  if (json) {
    io.stdout.write(`${JSON.stringify({ error: { code: error.code, message: error.message } })}\n`);
  } else {
    io.stderr.write(`shadowbox token: ${error.message} [${error.code}]\n`);
  }
  return httpStatusOf(error.code) < 500 ? exitCodes.rejected : exitCodes.failure;
}

/** Everything is checked here, before the database is opened: bad input writes nothing. */
function parse(args: readonly string[]): Parsed {
  const [sub, ...rest] = args;
  if (sub === '--help' || sub === '-h' || sub === 'help') return { sub: 'help' };
  if (sub === undefined) throw new UsageError('missing subcommand: create, list or revoke');
  if (sub !== 'create' && sub !== 'list' && sub !== 'revoke') {
    throw new UsageError(`unknown subcommand '${sub}': use create, list or revoke`);
  }
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(rest);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { sub: 'help' };
  const json = values.json === true;
  if (sub !== 'create') {
    if (values.scopes !== undefined) throw new UsageError(`--scopes is only for 'token create'`);
    if (values.name !== undefined) throw new UsageError(`--name is only for 'token create'`);
  }
  if (sub === 'revoke' && values.user !== undefined) {
    throw new UsageError(`--user is for 'token create' and 'token list'`);
  }
  if (sub === 'revoke') {
    const [id, ...extra] = positionals;
    if (id === undefined || id.trim() === '') throw new UsageError('token revoke needs an ID');
    if (extra.length > 0) throw new UsageError('token revoke takes exactly one ID');
    return { sub, id, json };
  }
  if (positionals.length > 0) {
    throw new UsageError(`unexpected argument '${positionals[0] ?? ''}'`);
  }
  if (sub === 'list') return { sub, user: values.user, json };
  if (values.user === undefined) {
    throw new UsageError('--user is required: the person the token acts as, e.g. --user bob');
  }
  if (values.scopes === undefined) {
    throw new UsageError('--scopes is required, e.g. --scopes agent or --scopes agent,reviewer');
  }
  const scopes = parseScopes(values.scopes.flatMap((value) => value.split(',')));
  return { sub, user: values.user, scopes, name: parseTokenName(values.name), json };
}

function parseOptions(args: readonly string[]) {
  return parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      scopes: { type: 'string', multiple: true },
      user: { type: 'string' },
      name: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function infoJson(info: ApiTokenInfo) {
  return {
    id: info.id,
    user: info.user,
    name: info.name,
    scopes: info.scopes,
    createdAt: info.createdAt.toISOString(),
    lastUsedAt: info.lastUsedAt?.toISOString() ?? null,
    revokedAt: info.revokedAt?.toISOString() ?? null,
  };
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length)),
  );
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths?.[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

async function execute(db: Db, command: Exclude<Parsed, { sub: 'help' }>, io: CliIo) {
  switch (command.sub) {
    case 'create': {
      const created = await createApiToken(db, {
        user: command.user,
        scopes: command.scopes,
        name: command.name,
      });
      if (command.json) {
        io.stdout.write(`${JSON.stringify(created)}\n`);
      } else {
        io.stdout.write(`${created.token}\n`);
        io.stderr.write(
          `created token ${created.id} for ${created.user} (name: ${created.name}, scopes: ${created.scopes.join(',')}); ` +
            'the token above is shown only once: store it now\n',
        );
      }
      return;
    }
    case 'list': {
      const tokens = await listApiTokens(
        db,
        command.user === undefined ? {} : { user: command.user },
      );
      if (command.json) {
        io.stdout.write(`${JSON.stringify(tokens.map(infoJson))}\n`);
        return;
      }
      if (tokens.length === 0) {
        io.stderr.write(
          "no API tokens; make one with 'shadowbox token create --user NAME --scopes agent'\n",
        );
        return;
      }
      io.stdout.write(
        table([
          ['ID', 'USER', 'NAME', 'SCOPES', 'CREATED', 'LAST USED', 'STATUS'],
          ...tokens.map((token) => [
            token.id,
            token.user ?? '(nobody)',
            token.name,
            token.scopes.join(','),
            token.createdAt.toISOString(),
            token.lastUsedAt?.toISOString() ?? 'never',
            token.revokedAt === null ? 'active' : `revoked ${token.revokedAt.toISOString()}`,
          ]),
        ]),
      );
      return;
    }
    case 'revoke': {
      const revoked = await revokeApiToken(db, command.id);
      if (command.json) {
        io.stdout.write(
          `${JSON.stringify({ ...infoJson(revoked), alreadyRevoked: revoked.alreadyRevoked })}\n`,
        );
      } else if (revoked.alreadyRevoked) {
        io.stdout.write(
          `token ${revoked.id} was already revoked at ${revoked.revokedAt?.toISOString() ?? '?'}\n`,
        );
      } else {
        io.stdout.write(`revoked token ${revoked.id} (${revoked.name})\n`);
      }
      return;
    }
  }
}

export const tokenCommand: CliCommand = async (args, io) => {
  const json = args.includes('--json');
  let command: Parsed;
  try {
    command = parse(args);
  } catch (error) {
    if (error instanceof UsageError) {
      return fail(io, json, { code: 'INVALID_ARGUMENT', message: `${error.message}; see --help` });
    }
    if (isAppError(error)) return fail(io, json, error);
    throw error;
  }
  if (command.sub === 'help') {
    io.stdout.write(help);
    return exitCodes.ok;
  }
  let db: Db | undefined;
  try {
    const env = loadEnv(io.env, io.cwd);
    await migrateDatabase(env.database);
    db = createDb(env);
    await execute(db, command, io);
    return exitCodes.ok;
  } catch (error) {
    if (isAppError(error)) return fail(io, command.json, error);
    // Unreachable server, bad credentials, full disk: a fault, not a stack trace.
    const message = error instanceof Error ? error.message : String(error);
    return fail(io, command.json, { code: 'INTERNAL', message: `database failure: ${message}` });
  } finally {
    await db?.$disconnect();
  }
};
