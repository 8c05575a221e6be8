import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { AppError } from '../../errors/app-error';
import { loadEnv, processRoles, type Env, type ProcessRole } from '../../env';
import { exitCodes, type CliCommand, type CliIo } from '../cli-io';
import { projectRoot } from '../project-root';

const help = `Usage: shadowbox serve [--role web|worker|all]

Starts Shadowbox on HOST:PORT (default 127.0.0.1:3000), data in SHADOWBOX_DATA_DIR (default
./data), database DATABASE_URL (default: SQLite in the data directory). Migrations run and
interrupted tasks resume at start.

  --role all     the web app and the task runner in one process (default; \`npm start\`)
  --role web     the web app (page, REST, tRPC, MCP over HTTP) only: it schedules tasks, workers
                 run them
  --role worker  runs tasks only, no web server (it needs no build); SIGTERM drains it: running
                 steps stop and move to the other workers

web and worker need a PostgreSQL DATABASE_URL; the role may also come from SHADOWBOX_ROLE. See
docs/deploy.md. Build the app first with \`npm run build\` (web, all).

Exit status: the server's own; 2 when the configuration is invalid or the app is not built.
`;

export const serveCommand: CliCommand = async (args, io) => {
  const { values } = parseArgs({
    args: [...args],
    options: { help: { type: 'boolean', short: 'h' }, role: { type: 'string' } },
  });
  if (values.help === true) {
    io.stdout.write(help);
    return exitCodes.ok;
  }
  const role = values.role ?? io.env.SHADOWBOX_ROLE;
  if (role !== undefined && !(processRoles as readonly string[]).includes(role)) {
    throw new AppError('INVALID_ARGUMENT', `--role must be web, worker or all, got ${role}`);
  }
  // Parsed here as well (with the role), so a bad value is reported before anything starts.
  const env = loadEnv({ ...io.env, SHADOWBOX_ROLE: role }, io.cwd);
  return env.role === 'worker' ? runWorker(env, io) : runNext(env, io);
};

/** The web app (and, for role all, the task runner inside it): `next start`. */
async function runNext(env: Env, io: CliIo): Promise<number> {
  if (!existsSync(path.join(projectRoot, '.next', 'BUILD_ID'))) {
    io.stderr.write('shadowbox serve: the app is not built; run `npm run build` first\n');
    return exitCodes.rejected;
  }
  const next = path.join(projectRoot, 'node_modules', 'next', 'dist', 'bin', 'next');
  const result = await execa(
    process.execPath,
    [next, 'start', '--hostname', env.host, '--port', String(env.port)],
    {
      cwd: projectRoot,
      // The role reaches the runtime inside Next.js through its environment (server/env.ts).
      env: { ...io.env, SHADOWBOX_DATA_DIR: env.dataDir, SHADOWBOX_ROLE: env.role },
      stdio: 'inherit',
      reject: false,
      // Ctrl-C reaches the server through the terminal; it ends and we return its status.
      forceKillAfterDelay: 10_000,
    },
  );
  return result.exitCode ?? exitCodes.failure;
}

/** A worker: the runtime without transports, running task steps until SIGTERM or SIGINT. */
async function runWorker(env: Env, io: CliIo): Promise<number> {
  const { createRuntime } = await import('../../runtime');
  const runtime = await createRuntime(env, { role: 'worker' satisfies ProcessRole });
  io.stderr.write(`shadowbox worker ${runtime.workerId ?? ''}: running tasks\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  io.stderr.write('shadowbox worker: draining (running steps move to the other workers)\n');
  await runtime.close();
  return exitCodes.ok;
}
