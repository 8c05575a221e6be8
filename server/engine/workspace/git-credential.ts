import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../../errors/app-error';

/** A user name and password (or token) for one git transport call. */
export interface GitCredential {
  readonly username: string;
  readonly secret: string;
}

/**
 * The environment that hands `credential` to one git process: git asks `git-askpass.sh`, which
 * answers from these variables. Never a URL, an argv or a config file; the caller scrubs the
 * secret from anything it reports (`scrubSecret`).
 */
export function credentialEnv(credential: GitCredential | null): Record<string, string> {
  if (credential === null) return {};
  return {
    GIT_ASKPASS: askpassPath(),
    SHADOWBOX_GIT_USERNAME: credential.username,
    SHADOWBOX_GIT_PASSWORD: credential.secret,
  };
}

/** The secret, and its URL-encoded form, never leave in a message. */
export function scrubSecret(text: string, credential: GitCredential | null): string {
  const secret = credential?.secret ?? '';
  if (secret === '') return text;
  return text.replaceAll(secret, '***').replaceAll(encodeURIComponent(secret), '***');
}

function askpassPath(): string {
  // Next to this module from source (tsx, vitest); in the checkout when a bundler moved the code.
  const candidates = [
    fileURLToPath(new URL('./git-askpass.sh', import.meta.url)),
    path.join(process.cwd(), 'server', 'engine', 'workspace', 'git-askpass.sh'),
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
