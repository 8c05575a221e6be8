import { exitCodes, type CliCommand } from '../cli-io';

// `shadowbox eval build|run|report`: each subcommand loads lazily, as the top-level commands do,
// so reading a report does not pay for the engine's imports.
const subcommands: Record<string, { summary: string; load: () => Promise<CliCommand> }> = {
  build: {
    summary: "mine an eval set (SWE-bench JSONL) from a repository's fix commits",
    load: async () => (await import('./eval-build')).evalBuildCommand,
  },
  run: {
    summary: 'run a set with a fixer, k attempts per instance: pass@1, pass@k, pass^k, cost',
    load: async () => (await import('./eval-run')).evalRunCommand,
  },
  report: {
    summary: 'print a run (or two side by side) as a table, or as one HTML file',
    load: async () => (await import('./eval-report')).evalReportCommand,
  },
};

function usage(): string {
  const lines = Object.entries(subcommands).map(
    ([name, { summary }]) => `  ${name.padEnd(6)}  ${summary}`,
  );
  return `Usage: shadowbox eval <build|run|report> [options]\n\n${lines.join('\n')}\n\nRun 'shadowbox eval <subcommand> --help' for its options.\n`;
}

export const evalCommand: CliCommand = async (args, io) => {
  const [name, ...rest] = args;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(usage());
    return name === undefined ? exitCodes.rejected : exitCodes.ok;
  }
  const subcommand = subcommands[name];
  if (subcommand === undefined) {
    io.stderr.write(`shadowbox eval: unknown subcommand '${name}'\n\n${usage()}`);
    return exitCodes.rejected;
  }
  return (await subcommand.load())(rest, io);
};
