import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../errors/app-error';
import { transportConfig, type PinnedGitUrl } from '../intake';
import { runGit } from '../workspace/git';
import { withExportRepo, type ExportOptions } from '../workspace';

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
  readonly credential: { readonly username: string; readonly secret: string } | null;
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
    const secret = options.credential?.secret ?? null;
    const output = await runGit({
      gitDir: repo,
      config: transportConfig(options.url),
      env: {
        GIT_ALLOW_PROTOCOL: options.url.protocol,
        GIT_TERMINAL_PROMPT: '0',
        ...(options.credential === null
          ? {}
          : {
              GIT_ASKPASS: askpassPath(),
              SHADOWBOX_GIT_USERNAME: options.credential.username,
              SHADOWBOX_GIT_PASSWORD: options.credential.secret,
            }),
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
    const said = scrub(`${output.stdout.toString('utf8')}\n${output.stderr}`, secret);
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

/** The secret, and its URL-encoded form, never leave in a message. */
function scrub(text: string, secret: string | null): string {
  if (secret === null || secret === '') return text;
  return text.replaceAll(secret, '***').replaceAll(encodeURIComponent(secret), '***');
}

function askpassPath(): string {
  // Next to this module from source (tsx, vitest); in the checkout when a bundler moved the code.
  const candidates = [
    fileURLToPath(new URL('./git-askpass.sh', import.meta.url)),
    path.join(process.cwd(), 'server', 'engine', 'landing', 'git-askpass.sh'),
  ];
  const file = candidates.find((candidate) => existsSync(candidate));
  if (file === undefined) {
    throw new AppError(
      'INTERNAL',
      `git-askpass.sh is missing (looked at ${candidates.join(', ')})`,
    );
  }
  return file;
}
