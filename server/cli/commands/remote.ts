import { parseArgs } from 'node:util';
import { cliActor } from '../../auth/actor';
import { defaultGitUrlPolicy, GitUrlPolicy, parseGitAllow } from '../../engine/intake';
import { loadEnv } from '../../env';
import { addRemote, checkRemoteName, listRemotes, removeRemote } from '../../remotes/remotes';
import { loadSecretBox } from '../../remotes/secret-box';
import { exitCodes, type CliCommand } from '../cli-io';
import { readPassword } from '../read-password';
import { failWith, withDatabase } from './with-database';

const help = `Usage: shadowbox remote add NAME --url URL [--username USER] [--forge github|gitea] [--json]
       shadowbox remote list [--json]
       shadowbox remote remove NAME [--json]

The repositories reviewers may push approved changes to (POST /api/v1/tasks/{id}/push).

add     Adds a remote, or replaces the one of that name. The URL is https (or a forge
        SHADOWBOX_GIT_ALLOW names) without credentials in it. The password or token is read as
        one line from standard input when that is not a terminal
        (printf '%s\\n' "$TOKEN" | shadowbox remote add origin --url https://… --username bot),
        otherwise asked for twice without echo. It is stored encrypted (SHADOWBOX_SECRETS_KEY,
        else a key kept in the data directory) and never printed, logged or put in a URL.
        --forge lets a push open or update a pull request there (GitHub and GitHub Enterprise;
        Gitea and Forgejo), with the same token.
list    Prints each remote: name, URL, user name, who added it. Never the credential.
remove  Forgets a remote and its credential.

Exit status: 0 done; 2 invalid arguments, a refused URL, an unknown name; 1 database failure.
`;

export const remoteCommand: CliCommand = async (args, io) => {
  const json = args.includes('--json');
  const refuse = (message: string): number =>
    failWith(io, 'remote', json, { code: 'INVALID_ARGUMENT', message: `${message}; see --help` });
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        username: { type: 'string' },
        forge: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return refuse((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [sub, name, ...extra] = positionals;
  if (values.help === true || sub === 'help') {
    io.stdout.write(help);
    return exitCodes.ok;
  }
  if (extra.length > 0) return refuse(`unexpected argument '${extra[0] ?? ''}'`);
  switch (sub) {
    case 'add': {
      if (name === undefined) return refuse('remote add needs a NAME');
      if (values.url === undefined) return refuse('--url is required');
      const url = values.url;
      return withDatabase(io, 'remote', json, async (db) => {
        checkRemoteName(name);
        const env = loadEnv(io.env, io.cwd);
        const forges = parseGitAllow(env.gitAllow);
        const gitPolicy = forges.length === 0 ? defaultGitUrlPolicy : new GitUrlPolicy({ forges });
        const box = await loadSecretBox(env.dataDir, env.secretsKey);
        const secret = await readPassword(io.stdin, io.stderr);
        const remote = await addRemote(
          { db, box, gitPolicy },
          { name, url, username: values.username, forge: values.forge, secret },
          cliActor,
        );
        if (json) io.stdout.write(`${JSON.stringify({ name: remote.name, url: remote.url })}\n`);
        else io.stdout.write(`added remote ${remote.name} (${remote.url})\n`);
      });
    }
    case 'list':
      if (name !== undefined) return refuse(`unexpected argument '${name}'`);
      return withDatabase(io, 'remote', json, async (db) => {
        const remotes = await listRemotes(db);
        if (json) {
          io.stdout.write(`${JSON.stringify({ remotes })}\n`);
          return;
        }
        if (remotes.length === 0) io.stdout.write('no remotes\n');
        for (const remote of remotes) {
          io.stdout.write(
            `${remote.name}\t${remote.url}\t${remote.username ?? '(token only)'}\t${remote.forge ?? 'push only'}\tadded by ${remote.createdBy}\n`,
          );
        }
      });
    case 'remove':
      if (name === undefined) return refuse('remote remove needs a NAME');
      return withDatabase(io, 'remote', json, async (db) => {
        await removeRemote({ db }, name, cliActor);
        if (json) io.stdout.write(`${JSON.stringify({ removed: name })}\n`);
        else io.stdout.write(`removed remote ${name}\n`);
      });
    default:
      return refuse(
        sub === undefined
          ? 'missing subcommand: add, list or remove'
          : `unknown subcommand '${sub}'`,
      );
  }
};
