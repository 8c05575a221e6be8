import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { loadEnv } from '../../env';
import { exitCodes, type CliCommand } from '../cli-io';

const help = `Usage: shadowbox serve

Starts the web app and the task runner (the same as \`npm start\`): \`next start\` on HOST:PORT
(default 127.0.0.1:3000), data in SHADOWBOX_DATA_DIR (default ./data), database DATABASE_URL
(default: SQLite in the data directory). Migrations run and interrupted tasks resume at start.
Build the app first with \`npm run build\`.

Exit status: the server's own; 2 when the configuration is invalid or the app is not built.
`;

const repoRoot = path.resolve(import.meta.dirname, '../../..');

export const serveCommand: CliCommand = async (args, io) => {
  const { values } = parseArgs({
    args: [...args],
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help === true) {
    io.stdout.write(help);
    return exitCodes.ok;
  }
  // Parsed here as well, so a bad value is reported before Next.js starts.
  const env = loadEnv(io.env, io.cwd);
  if (!existsSync(path.join(repoRoot, '.next', 'BUILD_ID'))) {
    io.stderr.write('shadowbox serve: the app is not built; run `npm run build` first\n');
    return exitCodes.rejected;
  }
  const next = path.join(repoRoot, 'node_modules', 'next', 'dist', 'bin', 'next');
  const result = await execa(
    process.execPath,
    [next, 'start', '--hostname', env.host, '--port', String(env.port)],
    {
      cwd: repoRoot,
      env: { ...io.env, SHADOWBOX_DATA_DIR: env.dataDir },
      stdio: 'inherit',
      reject: false,
      // Ctrl-C reaches the server through the terminal; it ends and we return its status.
      forceKillAfterDelay: 10_000,
    },
  );
  return result.exitCode ?? exitCodes.failure;
};
