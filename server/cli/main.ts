import { isAppError } from '../errors/app-error';
import { exitCodes, type CliCommand, type CliIo } from './cli-io';

// Commands load lazily so `shadowbox parse` does not pay for the shadow runner's imports.
const commands: Record<string, { summary: string; load: () => Promise<CliCommand> }> = {
  'shadow-run': {
    summary: 'run hypotheses in parallel copy-on-write shadows of a workspace and rank them',
    load: async () => (await import('./commands/shadow-run')).shadowRunCommand,
  },
  parse: {
    summary: 'parse test-runner output from stdin into passed/failed/skipped counts',
    load: async () => (await import('./commands/parse')).parseCommand,
  },
  ingest: {
    summary:
      'check an archive or Git URL against the intake policy and extract it into a directory',
    load: async () => (await import('./commands/ingest')).ingestCommand,
  },
  serve: {
    summary: 'start the web app and the task runner (needs `npm run build` first)',
    load: async () => (await import('./commands/serve')).serveCommand,
  },
  mcp: {
    summary: 'serve the MCP tools (shadow_run, tasks, milestones) to a local agent on stdio',
    load: async () => (await import('./commands/mcp')).mcpCommand,
  },
  token: {
    summary: 'create, list or revoke the API tokens agents and reviewers authenticate with',
    load: async () => (await import('./commands/token')).tokenCommand,
  },
  user: {
    summary: 'add, list, disable or rename the people who sign in (admins, reviewers, authors)',
    load: async () => (await import('./commands/user')).userCommand,
  },
  team: {
    summary: "make teams and set their members, who share the team's tasks",
    load: async () => (await import('./commands/team')).teamCommand,
  },
  eval: {
    summary: "mine eval sets from a repository's history, run them with a fixer and report",
    load: async () => (await import('./commands/eval')).evalCommand,
  },
  remote: {
    summary: 'add, list or remove the repositories approved changes are pushed to',
    load: async () => (await import('./commands/remote')).remoteCommand,
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const lines = Object.entries(commands).map(
    ([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`,
  );
  return `Usage: shadowbox <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'shadowbox <command> --help' for a command's options.\n`;
}

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(usage());
    return name === undefined ? exitCodes.rejected : exitCodes.ok;
  }
  const command = commands[name];
  if (command === undefined) {
    io.stderr.write(`shadowbox: unknown command '${name}'\n\n${usage()}`);
    return exitCodes.rejected;
  }
  try {
    return await (
      await command.load()
    )(rest, io);
  } catch (error) {
    if (isAppError(error)) {
      io.stderr.write(`shadowbox ${name}: ${error.message} [${error.code}]\n`);
      return error.code === 'INTERNAL' ? exitCodes.failure : exitCodes.rejected;
    }
    // node:util parseArgs refuses unknown or malformed options with a clear message of its own.
    if (
      error instanceof TypeError &&
      String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS')
    ) {
      io.stderr.write(`shadowbox ${name}: ${error.message}\n`);
      return exitCodes.rejected;
    }
    throw error;
  }
}
