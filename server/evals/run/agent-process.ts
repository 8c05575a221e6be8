import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { createApiToken, revokeApiToken } from '../../auth';
import type { Db } from '../../db/client';

// An external agent (`eval run --agent mcp`) attends one attempt: it gets an `agent`-scope token of
// the run's owner and the task's id, starts this checkout's `shadowbox mcp` itself and fixes the
// task through its tools. It runs on the host as the operator's own program (like `shadowbox mcp`);
// what it does to the task passes the MCP tools and the task's rules, never more.

export interface ExternalAgentOptions {
  readonly db: Db;
  /** The tasks' owner: the token acts as them, narrowed to the agent scope. */
  readonly username: string;
  /** The agent's command: file and arguments, no shell. */
  readonly argv: readonly string[];
  /** The eval run's environment (PATH, HOME, …): the agent's, plus the SHADOWBOX_* below. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly dataDir: string;
  /** The argv that starts this checkout's `shadowbox mcp`, handed to the agent. */
  readonly mcpCommand: readonly string[];
  readonly databaseUrl?: string | undefined;
  /** Where the agent's stdout and stderr go, line by line. */
  readonly log?: ((line: string) => void) | undefined;
  /** How long the agent gets after SIGTERM before SIGKILL. */
  readonly killGraceMs?: number;
}

/** Runs `wait` (the task's end) with the agent at work; afterwards the agent and its token end. */
export type AttendTask = <T>(taskId: string, problem: string, wait: () => Promise<T>) => Promise<T>;

export function externalAgent(options: ExternalAgentOptions): AttendTask {
  const [file, ...args] = options.argv;
  if (file === undefined) throw new Error('the agent command is empty');
  const grace = options.killGraceMs ?? 5000;
  return async (taskId, problem, wait) => {
    const created = await createApiToken(options.db, {
      user: options.username,
      scopes: ['agent'],
      name: `eval agent for task ${taskId}`,
    });
    let scratch: string | null = null;
    let stop: (() => Promise<void>) | null = null;
    try {
      scratch = await mkdtemp(path.join(os.tmpdir(), 'sbx-eval-agent-'));
      const cwd = path.join(scratch, 'work');
      await mkdir(cwd);
      const problemFile = path.join(scratch, 'problem.md');
      await writeFile(problemFile, problem);
      const child = execa(file, args, {
        cwd,
        env: {
          ...options.env,
          SHADOWBOX_TASK_ID: taskId,
          SHADOWBOX_TOKEN: created.token,
          SHADOWBOX_DATA_DIR: options.dataDir,
          ...(options.databaseUrl === undefined ? {} : { DATABASE_URL: options.databaseUrl }),
          SHADOWBOX_MCP_COMMAND: JSON.stringify(options.mcpCommand),
          SHADOWBOX_PROBLEM_FILE: problemFile,
        },
        extendEnv: false,
        // Its own process group: the MCP server and whatever else it starts end with it.
        detached: true,
        stdin: 'ignore',
        buffer: false,
        reject: false,
      });
      const forward = (chunk: Buffer): void => {
        for (const line of chunk.toString('utf8').split('\n')) {
          if (line !== '') options.log?.(`agent ${taskId}: ${line}`);
        }
      };
      child.stdout.on('data', forward);
      child.stderr.on('data', forward);
      const exited = child.then(() => undefined);
      stop = () => endGroup(child.pid, exited, grace);
      return await wait();
    } finally {
      await stop?.();
      await revokeApiToken(options.db, created.id);
      if (scratch !== null) await rm(scratch, { recursive: true, force: true });
    }
  };
}

/** SIGTERM to the agent's process group, SIGKILL after the grace; waits for the agent to go. */
async function endGroup(pid: number | undefined, exited: Promise<void>, graceMs: number) {
  if (pid === undefined) return exited;
  const signal = (name: NodeJS.Signals): void => {
    try {
      process.kill(-pid, name);
    } catch {
      // The group is gone already.
    }
  };
  signal('SIGTERM');
  const timer = setTimeout(() => {
    signal('SIGKILL');
  }, graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
  // The leader may have gone while children it left behind linger on SIGTERM.
  signal('SIGKILL');
}
