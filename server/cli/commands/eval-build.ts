import { mkdir, mkdtemp, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { GitUrlPolicy, defaultGitUrlPolicy, parseGitAllow } from '../../engine/intake';
import { loadEnv } from '../../env';
import { AppError, httpStatusOf, isAppError } from '../../errors/app-error';
import { buildSet } from '../../evals/mine/build-set';
import { createMiningEngine } from '../../evals/mine/mining-engine';
import { checkLocalRepo, type MineSource } from '../../evals/mine/mine-source';
import { exitCodes, type CliCommand, type CliIo } from '../cli-io';

const help = `Usage: shadowbox eval build (--repo PATH | --git URL) --out SET.jsonl [options]

Mines an eval set from a repository's history. Every non-merge commit (newest first) that changes
test files and other files is tried in a private worktree of the repository at its parent, after
the project's setup ran once (detected as for a task, in the sandbox): its tests run twice with only
the commit's test changes and twice with the whole commit, each in a copy-on-write shadow. The
commit becomes an instance when tests fail without its fix and pass with it:
  FAIL_TO_PASS  tests that failed in both runs without the fix and passed in both with it
  PASS_TO_PASS  tests that passed in all four runs
Left out, with the reason in the log: commits whose fix does not build or runs no test, commits
whose only fail-to-pass tests are flaky (their outcome differs between two runs of the same tree;
flaky tests are in neither list of a kept commit), commits where no test goes from fail to pass.

The set is JSON Lines in the SWE-bench instance format (instance_id, repo, base_commit, patch,
test_patch, problem_statement = the commit message, created_at, FAIL_TO_PASS, PASS_TO_PASS) plus
test_command; it is written whole or not at all.

Options:
  --repo PATH           a local git repository (its HEAD's history; it is copied, never written)
  --git URL             a Git URL, cloned under the intake policy (https only; SHADOWBOX_GIT_ALLOW)
  --out SET.jsonl       where the set goes (required)
  --log FILE            the build log (default: SET.jsonl.log)
  --since DATE          only commits made since DATE (YYYY-MM-DD or an ISO date and time)
  --max N               stop once N instances are kept
  --test-command CMD    the test command: a JSON array ('["pytest","-q"]') or words
                        (default: detected from the tree: cargo test, go test ./...,
                        python3 -m pytest -q, npm test)
  --timeout-secs S      per test run (default: 600)
  --data-dir DIR        scratch space (default: $SHADOWBOX_DATA_DIR or ./data)

Progress goes to stderr, one line per commit.

Exit status: 0 the set was written; 1 the setup failed (an empty set is written) or a fault;
2 invalid arguments or a refused source or command (nothing is written).
`;

const refuse = (message: string): never => {
  throw new AppError('INVALID_ARGUMENT', message);
};

function positiveInteger(name: string, value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) refuse(`--${name} must be a positive integer, got '${value}'`);
  return n;
}

/** `YYYY-MM-DD` or an ISO date and time, as the ISO instant git's --since takes. */
export function parseSince(value: string | undefined): string | null {
  if (value === undefined) return null;
  const iso = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
  const time = Date.parse(value);
  if (!iso.test(value) || Number.isNaN(time)) {
    refuse(`--since must be a date such as 2024-05-01 or 2024-05-01T12:00:00Z, got '${value}'`);
  }
  return new Date(time).toISOString();
}

/** A JSON array of strings, or words separated by spaces. */
export function parseTestCommand(value: string | undefined): readonly string[] | null {
  if (value === undefined) return null;
  let argv: unknown;
  if (value.trimStart().startsWith('[')) {
    try {
      argv = JSON.parse(value);
    } catch (error) {
      refuse(`--test-command is not a JSON array: ${(error as Error).message}`);
    }
  } else {
    argv = value.split(/\s+/).filter((word) => word !== '');
  }
  if (
    !Array.isArray(argv) ||
    argv.length === 0 ||
    !argv.every((arg) => typeof arg === 'string' && arg !== '')
  ) {
    refuse(`--test-command needs a program and its arguments, got '${value}'`);
  }
  return argv as string[];
}

async function runBuild(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      repo: { type: 'string' },
      git: { type: 'string' },
      out: { type: 'string' },
      log: { type: 'string' },
      since: { type: 'string' },
      max: { type: 'string' },
      'test-command': { type: 'string' },
      'timeout-secs': { type: 'string' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    io.stdout.write(help);
    return exitCodes.ok;
  }
  if (positionals.length > 0) refuse(`unexpected argument '${positionals[0] ?? ''}'; see --help`);
  if (values.out === undefined) refuse('--out SET.jsonl is required; see --help');
  if ((values.repo === undefined) === (values.git === undefined)) {
    refuse('give exactly one of --repo PATH and --git URL; see --help');
  }
  const since = parseSince(values.since);
  const max = positiveInteger('max', values.max);
  const timeoutSecs = positiveInteger('timeout-secs', values['timeout-secs']);
  const testCommand = parseTestCommand(values['test-command']);
  const out = path.resolve(io.cwd, values.out ?? '');
  const log = path.resolve(io.cwd, values.log ?? `${out}.log`);
  for (const file of [out, log]) {
    const dir = await stat(path.dirname(file)).catch(() => null);
    if (dir?.isDirectory() !== true) refuse(`the directory of '${file}' does not exist`);
  }
  let source: MineSource;
  if (values.repo !== undefined) {
    // Before the sandbox's probe: a wrong path is named at once.
    await checkLocalRepo(path.resolve(io.cwd, values.repo));
    source = { kind: 'repo', path: path.resolve(io.cwd, values.repo) };
  } else {
    source = { kind: 'git', url: values.git ?? '' };
  }
  const env = loadEnv(io.env, io.cwd);
  const dataDir = path.resolve(io.cwd, values['data-dir'] ?? env.dataDir);
  const forges = parseGitAllow(env.gitAllow);
  await mkdir(path.join(dataDir, 'eval-builds'), { recursive: true, mode: 0o700 });
  const root = await mkdtemp(path.join(dataDir, 'eval-builds', 'run-'));
  const engine = await createMiningEngine({
    root,
    dataDir,
    gitPolicy: forges.length === 0 ? defaultGitUrlPolicy : new GitUrlPolicy({ forges }),
    ...(env.egressAllow === undefined ? {} : { egressAllow: env.egressAllow }),
    limits: env.runLimits,
    sandboxReadOnlyPaths: env.sandboxReadOnlyPaths,
  });
  const result = await buildSet({
    source,
    since,
    max,
    out,
    log,
    testCommand,
    engine,
    progress: (line) => io.stderr.write(`${line}\n`),
    ...(timeoutSecs === null ? {} : { timeoutMs: timeoutSecs * 1000 }),
    setupTimeoutMs: env.setupTimeoutMs,
  });
  await engine.runner.settled();
  io.stdout.write(
    `${result.kept} instances from ${result.candidates} candidate commits of ${result.commits} written to ${out}; log: ${log}\n`,
  );
  if (result.setupError !== null) {
    io.stderr.write(`shadowbox eval build: the setup failed: ${result.setupError}\n`);
    return exitCodes.failure;
  }
  return exitCodes.ok;
}

export const evalBuildCommand: CliCommand = async (args, io) => {
  try {
    return await runBuild(args, io);
  } catch (error) {
    const parseError =
      error instanceof TypeError &&
      String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS');
    if (!isAppError(error) && !parseError) throw error;
    const message = isAppError(error) ? `${error.message} [${error.code}]` : error.message;
    io.stderr.write(`shadowbox eval build: ${message}\n`);
    // A fault (git, the disk: a 5xx code) is exit 1; refused input is exit 2.
    return isAppError(error) && httpStatusOf(error.code) >= 500
      ? exitCodes.failure
      : exitCodes.rejected;
  }
};
