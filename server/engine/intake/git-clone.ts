import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { EventSink } from '../ports';
import { runGit } from '../workspace/git';
import { credentialEnv, scrubSecret, type GitCredential } from '../workspace/git-credential';
import type { PinnedGitUrl } from './git-url-policy';
import { gitProgressParser } from './git-progress';
import type { IntakeEvent } from './intake-events';
import { reject } from './intake-result';

export interface CloneCaps {
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

export const defaultCloneCaps: CloneCaps = { timeoutMs: 10 * 60_000, maxBytes: 1024 ** 3 };

async function sizeOf(path: string): Promise<number> {
  const entries = await readdir(path, { withFileTypes: true, recursive: true }).catch(() => []);
  let total = 0;
  for (const entry of entries) {
    if (entry.isFile()) {
      total += (await stat(join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size;
    }
  }
  return total;
}

/** The transport settings of DESIGN.md "Git URLs": pinned, no redirects, no proxy, no extras. */
export function transportConfig(url: PinnedGitUrl): string[] {
  return [
    'http.followRedirects=false',
    'http.proxy=',
    'http.lowSpeedLimit=1024',
    'http.lowSpeedTime=60',
    'transfer.bundleURI=false',
    'protocol.allow=never',
    `protocol.${url.protocol}.allow=always`,
    'submodule.recurse=false',
    'fetch.recurseSubmodules=false',
    ...(url.curloptResolve === null ? [] : [`http.curloptResolve=${url.curloptResolve}`]),
  ];
}

/**
 * Clones `url` as a bare repository at `bareDir` (which must not exist; its parent must be
 * server-owned). Bare means nothing is checked out, so the tree can be judged before any file of
 * it exists on disk. The clone is killed when it outgrows `maxBytes` or `timeoutMs`.
 */
export async function cloneBare(options: {
  readonly url: PinnedGitUrl;
  readonly bareDir: string;
  readonly caps: CloneCaps;
  readonly events: EventSink<IntakeEvent>;
  /** A team forge's credential for this repository (a configured remote's), else none. */
  readonly credential?: GitCredential | null;
}): Promise<void> {
  const { url, bareDir, caps, events } = options;
  const credential = options.credential ?? null;
  const parent = dirname(bareDir);
  const abort = new AbortController();
  const watched = { tooLarge: false }; // set from the polling timer
  const watch = setInterval(() => {
    void sizeOf(bareDir).then((size) => {
      if (size > caps.maxBytes && !watched.tooLarge) {
        watched.tooLarge = true;
        abort.abort();
      }
    });
  }, 250);
  try {
    const output = await runGit({
      gitDir: null,
      cwd: parent,
      config: transportConfig(url),
      // Discovery must not climb into whatever repository happens to contain the data directory.
      env: {
        GIT_ALLOW_PROTOCOL: url.protocol,
        GIT_CEILING_DIRECTORIES: parent,
        ...credentialEnv(credential),
      },
      args: ['clone', '--bare', '--progress', '--', url.href, bareDir],
      timeoutMs: caps.timeoutMs,
      signal: abort.signal,
      onStderr: gitProgressParser((event) => {
        events.emit(event);
      }),
    });
    if (watched.tooLarge || (output.exitCode === 0 && (await sizeOf(bareDir)) > caps.maxBytes)) {
      throw reject('GIT_TOO_LARGE', `the repository is larger than ${caps.maxBytes} bytes`);
    }
    if (output.timedOut) throw reject('GIT_TIMEOUT', `clone took longer than ${caps.timeoutMs} ms`);
    if (output.exitCode === 0) return;
    const message = scrubSecret(
      output.stderr.split('\n').find((line) => line.startsWith('fatal:')) ?? '',
      credential,
    );
    if (/returned error: 30[1278]|redirect/i.test(message)) {
      throw reject('GIT_REDIRECT', 'the server answered with a redirect, which is not followed');
    }
    throw reject('GIT_CLONE_FAILED', `clone failed: ${message.replace(/^fatal: /, '')}`);
  } finally {
    clearInterval(watch);
  }
}
