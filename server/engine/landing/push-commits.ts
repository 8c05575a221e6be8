import { AppError } from '../../errors/app-error';
import { transportConfig, type PinnedGitUrl } from '../intake';
import { runGit } from '../workspace/git';
import {
  credentialEnv,
  scrubSecret,
  withExportRepo,
  type ExportOptions,
  type GitCredential,
} from '../workspace';

export interface PushOptions {
  /** The commits to push, rewritten on the baseline (see `withExportRepo`). */
  readonly commits: ExportOptions;
  /** The remote's URL, pinned by the policy of Git URLs. */
  readonly url: PinnedGitUrl;
  readonly branch: string;
  /**
   * What the branch must hold on the remote for the push to go ahead (`--force-with-lease`): the
   * commit Shadowbox pushed there last, or null for a branch that must not exist yet.
   */
  readonly expected: string | null;
  readonly credential: GitCredential | null;
  readonly timeoutMs?: number;
}

/** The branch's new commit on the remote. */
export interface PushResult {
  readonly commit: string;
}

/**
 * Pushes the rewritten commits to `branch` of the remote. The credential reaches git only through
 * its environment, answered by `git-askpass.sh` (never a URL, an argv, a config file); git runs
 * with the server's hardening (no hooks, no config-driven programs, no prompts), the transport
 * pinned to the address the policy checked, and a lease: a branch someone else moved is refused.
 * Every failure is PUSH_REJECTED with git's reason, the credential scrubbed out of it.
 */
export async function pushCommits(options: PushOptions): Promise<PushResult> {
  const ref = `refs/heads/${options.branch}`;
  return withExportRepo(options.commits, async (repo, tip) => {
    const check = await runGit({ gitDir: repo, args: ['check-ref-format', ref] });
    if (check.exitCode !== 0) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `branch ${JSON.stringify(options.branch)} is not a valid branch name`,
      );
    }
    const output = await runGit({
      gitDir: repo,
      config: transportConfig(options.url),
      env: {
        GIT_ALLOW_PROTOCOL: options.url.protocol,
        GIT_TERMINAL_PROMPT: '0',
        ...credentialEnv(options.credential),
      },
      args: [
        'push',
        '--porcelain',
        '--no-verify',
        `--force-with-lease=${ref}:${options.expected ?? ''}`,
        '--',
        options.url.href,
        `${tip}:${ref}`,
      ],
      timeoutMs: options.timeoutMs ?? 5 * 60_000,
    });
    const said = scrubSecret(
      `${output.stdout.toString('utf8')}\n${output.stderr}`,
      options.credential,
    );
    if (output.timedOut) {
      throw new AppError(
        'PUSH_REJECTED',
        `the push to ${options.url.hostname} took longer than ${Math.round((options.timeoutMs ?? 300_000) / 1000)} s`,
      );
    }
    if (output.exitCode === 0) return { commit: tip };
    throw new AppError('PUSH_REJECTED', reasonOf(said, options.branch), {
      details: { branch: options.branch, exitCode: output.exitCode },
    });
  });
}

/** git's words, turned into the reason a person can act on. */
function reasonOf(said: string, branch: string): string {
  if (/stale info|\[rejected\]|fetch first|non-fast-forward/.test(said)) {
    return `the remote's branch ${branch} is not where Shadowbox left it (someone else moved or made it): refused to overwrite it`;
  }
  if (
    /Authentication failed|HTTP 401|HTTP 403|could not read Username|invalid credentials/i.test(
      said,
    )
  ) {
    return `the remote refused the credential (${firstLine(said, /fatal: .*|error: .*/) ?? 'authentication failed'}); set it again with shadowbox remote add`;
  }
  const line = firstLine(said, /^(?:fatal|error|remote): .*|! .*/m);
  return `git push failed: ${line ?? said.trim().split('\n').pop() ?? 'no reason given'}`;
}

function firstLine(text: string, pattern: RegExp): string | null {
  const match = pattern.exec(text);
  return match === null ? null : match[0].trim().slice(0, 300);
}
