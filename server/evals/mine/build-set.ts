import { randomBytes } from 'node:crypto';
import { appendFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { checkCommand } from '../../engine/policy';
import { commitSetupTree } from '../../engine/setup';
import { AppError, isAppError } from '../../errors/app-error';
import { formatEvalInstance, type EvalInstance } from '../eval-instance';
import { candidacy, changedFiles, listCommits, type CommitCandidate } from './commit-candidates';
import { detectTestCommand } from './detect-test-command';
import { someNames } from './keep-decision';
import { checkOut, type MineSource, type MiningCheckout } from './mine-source';
import { mineCommit, type MinedCommit, type MineCommitDeps } from './mine-commit';
import type { MiningEngine } from './mining-engine';
import { miningTask } from './mining-task';

export interface BuildSetOptions {
  readonly source: MineSource;
  /** Only commits made since this date (ISO); null: all. */
  readonly since: string | null;
  /** Stop once this many instances are kept; null: no limit. */
  readonly max: number | null;
  /** The set (JSON Lines); written whole or not at all. */
  readonly out: string;
  /** The build log: every commit's decision and why. */
  readonly log: string;
  /** argv; null: detected from the tree. */
  readonly testCommand: readonly string[] | null;
  readonly engine: MiningEngine;
  /** One line per step, for a person watching (stderr). */
  readonly progress: (line: string) => void;
  /** Per run of the tests; default 10 minutes. */
  readonly timeoutMs?: number;
  readonly setupTimeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface BuildSetResult {
  readonly commits: number;
  readonly candidates: number;
  readonly kept: number;
  /** Why the setup failed (nothing was mined); null when it ran. */
  readonly setupError: string | null;
}

const short = (sha: string): string => sha.slice(0, 7);

/** `<repo name>` of instance ids: the path's or URL's last segment without `.git`. */
export function repoName(source: MineSource): string {
  const where = source.kind === 'repo' ? path.resolve(source.path) : source.url;
  const last = where.replace(/\/+$/, '').split('/').pop() ?? 'repo';
  return last.replace(/\.git$/, '').replace(/[^A-Za-z0-9._-]/g, '_') || 'repo';
}

export function instanceOf(
  source: MineSource,
  candidate: CommitCandidate,
  mined: MinedCommit & { readonly kept: true },
  testCommand: readonly string[],
): EvalInstance {
  return {
    instance_id: `${repoName(source)}__${short(candidate.parent)}-${short(candidate.sha)}`,
    repo: source.kind === 'repo' ? path.resolve(source.path) : source.url,
    base_commit: candidate.parent,
    patch: mined.patch,
    test_patch: mined.testPatch,
    problem_statement: candidate.message,
    hints_text: '',
    created_at: new Date(candidate.date).toISOString(),
    FAIL_TO_PASS: [...mined.failToPass],
    PASS_TO_PASS: [...mined.passToPass],
    test_command: [...testCommand],
  };
}

/** What one commit's line says in the log and on stderr. */
export function describeMined(mined: MinedCommit): string {
  if (!mined.kept) return `left out: ${mined.reason}`;
  const flaky =
    mined.flaky.length === 0 ? '' : `; flaky, in neither list: ${someNames(mined.flaky)}`;
  return `kept: ${mined.failToPass.length} fail→pass, ${mined.passToPass.length} pass→pass${flaky}`;
}

async function testCommandFor(
  checkout: MiningCheckout,
  at: string,
  given: readonly string[] | null,
): Promise<{ argv: readonly string[]; reason: string }> {
  const chosen =
    given === null
      ? await detectTestCommand(await commitSetupTree(checkout.gitDir, at))
      : { argv: given, reason: 'given with --test-command' };
  if (chosen === null) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `no test command found at ${short(at)} (no Cargo.toml, go.mod, Python tests or npm test script at the root): give one with --test-command`,
    );
  }
  const verdict = checkCommand(chosen.argv);
  if (!verdict.ok) throw new AppError('COMMAND_NOT_ALLOWED', `test command: ${verdict.message}`);
  return chosen;
}

/**
 * Mines an eval set from a repository's history: every non-merge commit (newest first) that
 * changes test files and other files is run in shadows of its parent (see mineCommit), once the
 * project's setup ran in the miner's own worktree. The set is written whole (temp file, rename);
 * the log says what became of each commit.
 */
export async function buildSet(options: BuildSetOptions): Promise<BuildSetResult> {
  const { engine, progress } = options;
  const log = async (line: string): Promise<void> => appendFile(options.log, `${line}\n`);
  try {
    // A refused source writes nothing: the log starts once the source is checked out.
    const checkout = await checkOut(engine, options.source);
    await writeFile(options.log, '');
    const where = options.source.kind === 'repo' ? options.source.path : options.source.url;
    await log(`eval build of ${where} at ${checkout.head}`);
    const commits = await listCommits(checkout.gitDir, options.since);
    const candidates: CommitCandidate[] = [];
    for (const commit of commits) {
      const files =
        commit.parent === null
          ? []
          : await changedFiles(checkout.gitDir, commit.parent, commit.sha);
      const verdict = candidacy(commit, files);
      if (verdict.ok) candidates.push(verdict.candidate);
      else await log(`${short(commit.sha)} not a candidate: ${verdict.reason}`);
    }
    await log(`${commits.length} commits, ${candidates.length} candidates`);
    const instances: EvalInstance[] = [];
    const first = candidates[0];
    if (first === undefined) {
      await writeSet(options.out, instances);
      return { commits: commits.length, candidates: 0, kept: 0, setupError: null };
    }
    const command = await testCommandFor(checkout, first.parent, options.testCommand);
    await log(`test command: ${JSON.stringify(command.argv)} (${command.reason})`);
    const setup = await setUp(options, checkout, first.parent, command.argv);
    if (typeof setup === 'string') {
      await log(`setup failed, nothing mined: ${setup}`);
      await writeSet(options.out, instances);
      return { commits: commits.length, candidates: candidates.length, kept: 0, setupError: setup };
    }
    const deps: MineCommitDeps = {
      gitDir: checkout.gitDir,
      workspace: checkout.workspace,
      shadows: engine.shadows,
      command: command.argv,
      settings: { ...setup, timeoutMs: options.timeoutMs ?? 10 * 60 * 1000 },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    };
    for (const [index, candidate] of candidates.entries()) {
      if (options.max !== null && instances.length >= options.max) {
        await log(`${short(candidate.sha)} not run: --max ${options.max} instances kept`);
        continue;
      }
      const mined = await mineOne(deps, candidate);
      const line = `${short(candidate.sha)} ${describeMined(mined)}`;
      progress(`[${index + 1}/${candidates.length}] ${line}`);
      await log(`${line} — ${candidate.message.split('\n')[0] ?? ''}`);
      if (mined.kept) instances.push(instanceOf(options.source, candidate, mined, command.argv));
    }
    await writeSet(options.out, instances);
    await log(`${instances.length} instances written to ${options.out}`);
    return {
      commits: commits.length,
      candidates: candidates.length,
      kept: instances.length,
      setupError: null,
    };
  } finally {
    await rm(engine.root, { recursive: true, force: true });
  }
}

/** One commit; a commit the engine refuses to run (a path a hypothesis may not write) is left out. */
async function mineOne(deps: MineCommitDeps, candidate: CommitCandidate): Promise<MinedCommit> {
  try {
    return await mineCommit(deps, candidate);
  } catch (error) {
    if (!isAppError(error) || error.code === 'INTERNAL') throw error;
    return { kept: false, why: 'unsupported-change', reason: error.message, flaky: [] };
  }
}

/**
 * The project's setup, once, at `commit` (the newest candidate's parent), through the engine's
 * detection and sandbox; every later run keeps its outputs (ignored files survive moving the
 * worktree). Returns what runs need from it, or why it failed.
 */
async function setUp(
  options: BuildSetOptions,
  checkout: MiningCheckout,
  commit: string,
  testCommand: readonly string[],
): Promise<{ env: Readonly<Record<string, string>>; buildCommand?: readonly string[] } | string> {
  const task = miningTask({
    id: checkout.taskId,
    source:
      options.source.kind === 'repo'
        ? { kind: 'archive', name: repoName(options.source) }
        : { kind: 'git', url: options.source.url, ref: null },
    sourceId: checkout.sourceId,
    commit,
    testCommand,
  });
  await checkout.workspace.rollbackTo(commit, { keepIgnored: false });
  const plan = await options.engine.setup.plan(task, checkout.workspace);
  for (const reason of plan.reasons) options.progress(`setup: ${reason}`);
  const result = await options.engine.setup.run(task, checkout.workspace, plan, {
    onLine: (line) => options.progress(`setup: ${line}`),
    signal: options.signal ?? new AbortController().signal,
    timeoutMs: options.setupTimeoutMs ?? 15 * 60 * 1000,
  });
  if (!result.ok) return result.error ?? `setup exited with ${String(result.exitCode)}`;
  const build = plan.build?.argv;
  return { env: plan.env, ...(build === undefined ? {} : { buildCommand: build }) };
}

/** The set, whole or not at all: a crash leaves the old file (or none), never half of one. */
async function writeSet(out: string, instances: readonly EvalInstance[]): Promise<void> {
  const temporary = path.join(
    path.dirname(out),
    `.${path.basename(out)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const text = instances.map((instance) => `${formatEvalInstance(instance)}\n`).join('');
  try {
    await writeFile(temporary, text, { flag: 'wx' });
    await rename(temporary, out);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
