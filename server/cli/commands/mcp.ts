import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { loadEnv } from '../../env';
import { mcpServicesOf } from '../../api/mcp/services';
import { serveMcpStdio } from '../../api/mcp/stdio';
import { createRuntime } from '../../runtime';
import { cliActor, type Actor } from '../../auth';
import { exitCodes, type CliCommand, type CliIo } from '../cli-io';

const help = `Usage: shadowbox mcp

Serves the Model Context Protocol on stdin/stdout for a local agent (Claude Code, Codex, …). With
SHADOWBOX_TOKEN set to an API token it acts as that token's person (their tasks, their scopes);
without it, as the machine's administrator (like every CLI command). Tools: shadow_run (hypotheses in shadows of a workspace of yours or of a
task's worktree), create_task, submit_hypotheses, get_task, get_diff, list_threads,
reply_to_thread, milestone. None approves, rejects, requests changes or resolves a thread.

It opens the data directory SHADOWBOX_DATA_DIR (default ./data; database DATABASE_URL) and runs
tasks like the web server, taking them from the same database queue. It ends when stdin ends, or on
SIGINT/SIGTERM. Only MCP messages are written to stdout; logs go to stderr.

Register it with a client, e.g.:
  {"mcpServers":{"shadowbox":{"command":"npx","args":["shadowbox","mcp"],"cwd":"/path/to/shadowbox"}}}
`;

/** Whatever the process prints goes to stderr: stdout carries JSON-RPC and nothing else. */
function keepStdoutForProtocol(): void {
  const toStderr = (...args: unknown[]): void => {
    console.error(...args);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

function writableOf(stdout: CliIo['stdout']): Writable {
  if (stdout instanceof Writable) return stdout;
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      stdout.write(chunk.toString());
      callback();
    },
  });
}

export const mcpCommand: CliCommand = async (args, io) => {
  const { values } = parseArgs({
    args: [...args],
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help === true) {
    io.stdout.write(help);
    return exitCodes.ok;
  }
  const env = loadEnv(io.env, io.cwd);
  keepStdoutForProtocol();
  // One runtime, so one shadow runner: the task loop and `shadow_run` share its probe and sweep.
  // With PostgreSQL the workers run the tasks; an agent's MCP session only schedules them.
  const runtime = await createRuntime(
    env,
    env.database.provider === 'postgresql' ? { role: 'web' } : {},
  );
  const token = io.env.SHADOWBOX_TOKEN;
  let actor: Actor = cliActor;
  try {
    if (token !== undefined && token !== '') actor = await runtime.authenticate(`Bearer ${token}`);
  } catch (error) {
    await runtime.close();
    throw error;
  }
  const stop = new AbortController();
  const onSignal = (): void => {
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await serveMcpStdio({
      services: mcpServicesOf(runtime),
      actor,
      stdin: io.stdin,
      stdout: writableOf(io.stdout),
      signal: stop.signal,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    // Also waits for the scratch space of `shadow_run`'s finished runs to be deleted.
    await runtime.close();
  }
  return exitCodes.ok;
};
