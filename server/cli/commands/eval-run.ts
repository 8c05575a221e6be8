import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadPerson, personIdOf, type Actor } from '../../auth';
import { defaultGitUrlPolicy, GitUrlPolicy, parseGitAllow } from '../../engine';
import { loadEnv } from '../../env';
import { parseEvalSet } from '../../evals/eval-instance';
import { renderRunText } from '../../evals/report/report-text';
import { externalAgent } from '../../evals/run/agent-process';
import { readRunFile, writeRunFile, type RunFile } from '../../evals/run/run-file';
import { newRunFile, runEvalSet, type RunProgress } from '../../evals/run/run-set';
import { runtimeAttempts } from '../../evals/run/runtime-attempts';
import { AppError, isAppError } from '../../errors/app-error';
import { exitCodes, type CliCommand, type CliIo } from '../cli-io';
import { projectRoot } from '../project-root';
import { failWith } from './with-database';

const help = `Usage: shadowbox eval run SET.jsonl --fixer llm --as USER --out RUN.json [options]
       shadowbox eval run SET.jsonl --agent mcp --agent-command ARGV --as USER --out RUN.json [options]

Runs every instance of an eval set (SWE-bench JSONL, e.g. from \`shadowbox eval build\`) k times.
Each attempt is a task owned by USER, in the run's eval scope (out of the task list unless it
asks for scope=evals): the instance's base_commit with its test_patch, uploaded, fixed by the LLM
fixer, run on this machine's sandbox. An attempt is resolved when every FAIL_TO_PASS test passes
at the task's final checkpoint, no PASS_TO_PASS test fails or goes missing, and the diff raised
no test-edit or tamper flag. RUN.json is rewritten after every attempt; run the same command
again after a crash and it goes on: a recorded task is awaited, never started twice.

  --fixer llm            the fixer (the server's LLM endpoint, SHADOWBOX_LLM_*)
  --model M              the model (default SHADOWBOX_LLM_MODEL)
  -k N                   attempts per instance (default 3)
  --parallel P           tasks at a time (default 2)
  --max-iterations N     iterations per task (default 3)
  --test-command ARGV    for instances without test_command: a JSON array ("[\\"pytest\\",\\"-q\\"]")
                         or words separated by spaces
  --as USER              the person the tasks belong to (see \`shadowbox user list\`)
  --out RUN.json         the run's record (resumed when it exists)
  --timeout-secs S       cancel an attempt still going after S seconds (default 3600)
  --agent mcp            instead of --fixer: an external agent fixes each attempt through the MCP
                         tools (the task's fixer is 'external'); needs --agent-command
  --agent-command ARGV   the agent: a JSON array or words, run without a shell, once per attempt
  -h, --help             show this help

With --agent mcp each attempt gets an API token of USER with the agent scope, revoked when the
attempt ends, and the agent command runs in a fresh scratch directory with SHADOWBOX_TASK_ID,
SHADOWBOX_TOKEN, SHADOWBOX_DATA_DIR, DATABASE_URL (when set), SHADOWBOX_PROBLEM_FILE (the problem
statement) and SHADOWBOX_MCP_COMMAND (a JSON argv starting this checkout's \`shadowbox mcp\`, which
acts as the token's person). The agent runs on this machine as your own program, like
\`shadowbox mcp\` itself: only what it does through the MCP tools reaches the task, under the
task's rules (test-edit guard, sandbox). When the task ends or --timeout-secs passes, the agent and
its process group are killed. Tokens and cost are what the task recorded: 0 for an external fixer,
whatever the agent spent (RUN.json says "fixer":"external","agent":"mcp").

Progress goes to stderr; the report (as \`shadowbox eval report\`) to stdout at the end. Run it
while no \`shadowbox serve\` uses the same database: the server would take the run's tasks too.

Exit status: 0 the run is complete (whatever it resolved); 2 invalid arguments, a set or RUN.json
that does not read, an unknown user; 1 a fault (database, disk) — run again to resume.
`;

const positive = (name: string, value: string | undefined, fallback: number, max: number) => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > max) {
    throw new AppError('INVALID_ARGUMENT', `${name} must be a whole number from 1 to ${max}`);
  }
  return n;
};

function parseArgv(text: string, option = '--test-command'): string[] {
  if (text.trim().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string' && a !== '')) {
      throw new AppError('INVALID_ARGUMENT', `${option} is not a JSON array of strings`);
    }
    return parsed as string[];
  }
  const words = text.split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) throw new AppError('INVALID_ARGUMENT', `${option} is empty`);
  return words;
}

export const evalRunCommand: CliCommand = async (args, io) => {
  const fail = (error: unknown): number =>
    isAppError(error)
      ? failWith(io, 'eval run', false, error)
      : failWith(io, 'eval run', false, {
          code: 'INTERNAL',
          message: error instanceof Error ? error.message : String(error),
        });
  const refuse = (message: string): number =>
    fail(new AppError('INVALID_ARGUMENT', `${message}; see --help`));
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        fixer: { type: 'string' },
        agent: { type: 'string' },
        'agent-command': { type: 'string' },
        model: { type: 'string' },
        k: { type: 'string', short: 'k' },
        parallel: { type: 'string' },
        'max-iterations': { type: 'string' },
        'test-command': { type: 'string' },
        as: { type: 'string' },
        out: { type: 'string' },
        'timeout-secs': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return refuse((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout.write(help);
    return exitCodes.ok;
  }
  const agent = values.agent !== undefined;
  if (agent) {
    if (values.agent !== 'mcp')
      return refuse(`--agent ${values.agent} is unknown: only --agent mcp`);
    if (values.fixer !== undefined) {
      return refuse('--agent mcp replaces --fixer: the agent is the fixer; give one of them');
    }
    if (values.model !== undefined) {
      return refuse(
        "--model picks the LLM fixer's model; with --agent mcp the agent picks its own",
      );
    }
    if (values['agent-command'] === undefined) {
      return refuse('--agent mcp needs --agent-command ARGV: the agent to start for each attempt');
    }
  } else {
    if (values['agent-command'] !== undefined) return refuse('--agent-command needs --agent mcp');
    if (values.fixer !== 'llm') return refuse('--fixer llm or --agent mcp is required');
  }
  if (positionals.length !== 1) return refuse('give one SET.jsonl');
  if (values.as === undefined) return refuse('--as USER is required: the tasks need an owner');
  if (values.out === undefined) return refuse('--out RUN.json is required');
  try {
    const settings = {
      k: positive('-k', values.k, 3, 100),
      parallel: positive('--parallel', values.parallel, 2, 64),
      maxIterations: positive('--max-iterations', values['max-iterations'], 3, 10),
      timeoutSecs: positive('--timeout-secs', values['timeout-secs'], 3600, 86_400),
      testCommand:
        values['test-command'] === undefined ? undefined : parseArgv(values['test-command']),
      agentCommand:
        values['agent-command'] === undefined
          ? undefined
          : parseArgv(values['agent-command'], '--agent-command'),
    };
    const setFile = path.resolve(io.cwd, positionals[0] ?? '');
    const instances = parseEvalSet(await readFile(setFile, 'utf8'), positionals[0]);
    const untestable = instances.filter((i) => i.test_command === undefined);
    if (settings.testCommand === undefined && untestable.length > 0) {
      return refuse(
        `${untestable.length} instance(s) have no test_command (${untestable[0]?.instance_id ?? ''}…): give --test-command`,
      );
    }
    const env = loadEnv(io.env, io.cwd);
    if (env.llm === null && !agent) {
      throw new AppError(
        'INVALID_ARGUMENT',
        'no LLM is configured (set SHADOWBOX_LLM_BASE_URL and SHADOWBOX_LLM_MODEL)',
      );
    }
    // An agent's run is labelled by its command: the report compares runs by this name.
    const model =
      settings.agentCommand !== undefined
        ? `agent: ${settings.agentCommand.join(' ')}`.slice(0, 200)
        : (values.model ?? env.llm?.model ?? '');
    const out = path.resolve(io.cwd, values.out);
    const previous = await readRunFile(out);
    if (previous !== null) {
      checkResumable(
        previous,
        { model, k: settings.k },
        new Set(instances.map((i) => i.instance_id)),
      );
    }
    const run =
      previous ??
      newRunFile({
        runId: `eval-${randomBytes(6).toString('hex')}`,
        set: setFile,
        fixer: agent ? 'external' : 'llm',
        ...(agent ? { agent: 'mcp' } : {}),
        model,
        k: settings.k,
        maxIterations: settings.maxIterations,
        startedAt: new Date().toISOString(),
        instances,
      });
    const { createRuntime } = await import('../../runtime');
    // The reviewer model is off: an eval measures the fixer, and its tokens would count too.
    const runtime = await createRuntime(env, {
      llm: env.llm === null || agent ? null : { ...env.llm, model, reviewerModel: null },
      taskConcurrency: settings.parallel,
    });
    try {
      const actor = await actorFor(runtime.db, values.as);
      const forges = parseGitAllow(env.gitAllow);
      const done = await runEvalSet({
        instances,
        run,
        parallel: settings.parallel,
        port: runtimeAttempts({
          runtime,
          actor,
          runId: run.runId,
          maxIterations: run.maxIterations,
          testCommand: settings.testCommand,
          gitPolicy: forges.length === 0 ? defaultGitUrlPolicy : new GitUrlPolicy({ forges }),
          cwd: io.cwd,
          attemptTimeoutMs: settings.timeoutSecs * 1000,
          fixer:
            settings.agentCommand === undefined
              ? { kind: 'llm' }
              : {
                  kind: 'external',
                  attend: externalAgent({
                    db: runtime.db,
                    username: values.as,
                    argv: settings.agentCommand,
                    env: io.env,
                    dataDir: env.dataDir,
                    mcpCommand: [
                      process.execPath,
                      path.join(projectRoot, 'bin', 'shadowbox.mjs'),
                      'mcp',
                    ],
                    // Absolute, as this process resolved it: the agent runs in a scratch directory.
                    databaseUrl:
                      io.env.DATABASE_URL === undefined
                        ? undefined
                        : env.database.provider === 'sqlite'
                          ? `file:${env.database.file}`
                          : env.database.url,
                    log: (line) => io.stderr.write(`${line}\n`),
                  }),
                },
        }),
        save: (r) => writeRunFile(out, r),
        progress: (p) => {
          showProgress(io, p);
        },
      });
      io.stdout.write(renderRunText(done));
      return exitCodes.ok;
    } finally {
      await runtime.close();
    }
  } catch (error) {
    return fail(error);
  }
};

/** A rerun goes on with the run it names; other settings would mix two runs in one record. */
function checkResumable(
  run: RunFile,
  asked: { readonly model: string; readonly k: number },
  instances: ReadonlySet<string>,
): void {
  if (run.model !== asked.model || run.k !== asked.k) {
    throw new AppError(
      'CONFLICT',
      `the --out file is a run of model ${run.model} with k = ${run.k}, not ${asked.model} with k = ${asked.k}: give another --out, or the same settings to resume it`,
    );
  }
  const stranger = run.instances.find((i) => !instances.has(i.instance_id));
  if (stranger !== undefined) {
    throw new AppError(
      'CONFLICT',
      `the --out file has instance ${stranger.instance_id}, which this set does not: is it another set's run?`,
    );
  }
}

async function actorFor(db: Parameters<typeof loadPerson>[0], username: string): Promise<Actor> {
  const { id } = await personIdOf(db, username);
  const person = await loadPerson(db, id);
  if (person === null) throw new AppError('INVALID_ARGUMENT', `${username} is disabled`);
  return { kind: 'user', person };
}

function showProgress(io: CliIo, p: RunProgress): void {
  io.stderr.write(
    `eval: ${p.instancesDone}/${p.instances} instances done, ${p.attemptsDone}/${p.attempts} attempts, ${p.resolved} resolved, ${p.tokens} tokens, $${p.costUsd.toFixed(4)} spent\n`,
  );
}
