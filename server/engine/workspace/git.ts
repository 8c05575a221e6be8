import type { Readable } from 'node:stream';
import { execa } from 'execa';
import { AppError } from '../../errors/app-error';

/**
 * The one way Shadowbox runs git on the host. Nothing a workspace contains may make the host run
 * code, so every invocation names a server-owned git dir explicitly (never discovery through a
 * `.git` that a test run could rewrite), reads no system or global config, disables hooks and the
 * fsmonitor, and gets a fresh environment without proxies, askpass helpers or prompts.
 */
export interface GitRun {
  /** The server-owned repository (or per-worktree git dir); null only for `clone`. */
  readonly gitDir: string | null;
  readonly workTree?: string;
  readonly args: readonly string[];
  /** Extra `-c key=value` pairs, after the hardening ones (which they cannot undo: see below). */
  readonly config?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Standard input; a stream for what should not sit in memory whole (an import's file contents). */
  readonly input?: string | Buffer | Readable;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly onStderr?: (chunk: string) => void;
}

export interface GitOutput {
  readonly exitCode: number;
  readonly stdout: Buffer;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly canceled: boolean;
}

const hardening = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'core.pager=cat',
  'core.autocrlf=false',
  'core.untrackedCache=false',
  'credential.helper=',
  'gc.auto=0',
  'maintenance.auto=false',
  'commit.gpgSign=false',
  'color.ui=false',
  // Worktrees belong to the sandbox's identity, not to the server. Git's ownership check guards
  // against a repository discovered in a directory someone else controls; every invocation here
  // names its server-owned git dir explicitly, so there is nothing to discover.
  'safe.directory=*',
];

const forbiddenOverrides =
  /^(core\.(fsmonitor|hookspath|pager|sshcommand|askpass)|credential\.|include)/i;

export function gitEnvironment(
  extra: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: '/nonexistent', // no ~/.gitconfig, ~/.config/git/{attributes,ignore}, ~/.netrc
    LANG: 'C',
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_LFS_SKIP_SMUDGE: '1',
    GIT_PROTOCOL_FROM_USER: '0',
    // No transport at all unless the caller (the clone) allows exactly one.
    GIT_ALLOW_PROTOCOL: '',
    ...extra,
  };
}

/** Runs git and returns its outcome whatever the exit code; only a failure to spawn throws. */
export async function runGit(run: GitRun): Promise<GitOutput> {
  for (const pair of run.config ?? []) {
    if (forbiddenOverrides.test(pair)) {
      throw new AppError('INTERNAL', `git config override ${pair} would undo the hardening`);
    }
  }
  const argv = [
    ...[...hardening, ...(run.config ?? [])].flatMap((pair) => ['-c', pair]),
    ...(run.gitDir === null ? [] : [`--git-dir=${run.gitDir}`]),
    ...(run.workTree === undefined ? [] : [`--work-tree=${run.workTree}`]),
    ...run.args,
  ];
  const child = execa('git', argv, {
    env: gitEnvironment(run.env),
    extendEnv: false,
    cwd: run.cwd ?? run.gitDir ?? '/',
    reject: false,
    encoding: 'buffer',
    stripFinalNewline: false,
    maxBuffer: 1024 ** 3,
    ...(run.input === undefined ? { stdin: 'ignore' as const } : { input: run.input }),
    // Its own process group: a clone's `git-remote-https` child would otherwise outlive a killed
    // git and hold the pipes open until curl's own timeouts fire.
    detached: true,
  });
  // Mutated from the timer and the abort listener.
  const ended = { timedOut: false, canceled: false };
  const killGroup = (): void => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const timer =
    run.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          ended.timedOut = true;
          killGroup();
        }, run.timeoutMs);
  const onAbort = (): void => {
    ended.canceled = true;
    killGroup();
  };
  run.signal?.addEventListener('abort', onAbort, { once: true });
  if (run.onStderr !== undefined) {
    const onStderr = run.onStderr;
    child.stderr.on('data', (chunk: Buffer) => {
      onStderr(chunk.toString('utf8'));
    });
  }
  const result = await child.finally(() => {
    clearTimeout(timer);
    run.signal?.removeEventListener('abort', onAbort);
  });
  if (result.failed && result.exitCode === undefined && !ended.timedOut && !ended.canceled) {
    throw new AppError('GIT_COMMAND_FAILED', `could not run git: ${result.shortMessage}`);
  }
  return {
    exitCode: result.exitCode ?? -1,
    stdout: Buffer.from(result.stdout),
    stderr: Buffer.from(result.stderr).toString('utf8'),
    timedOut: ended.timedOut,
    canceled: ended.canceled,
  };
}

/** Runs git and returns stdout, throwing GIT_COMMAND_FAILED (a host fault) on a non-zero exit. */
export async function git(run: GitRun): Promise<Buffer> {
  const output = await runGit(run);
  if (output.exitCode !== 0) {
    throw new AppError(
      'GIT_COMMAND_FAILED',
      `git ${run.args[0] ?? ''} failed: ${output.stderr.trim()}`,
      {
        details: { args: run.args, exitCode: output.exitCode },
      },
    );
  }
  return output.stdout;
}

export const gitText = async (run: GitRun): Promise<string> =>
  (await git(run)).toString('utf8').trim();
