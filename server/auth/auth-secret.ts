import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors/app-error';

/**
 * The key better-auth signs session cookies with. SHADOWBOX_AUTH_SECRET when set (every web
 * process of a multi-machine deployment must share one); otherwise made once and kept in the data
 * directory (mode 0600, also for one found wider), so sessions survive a restart of the
 * one-machine default.
 */
export function loadAuthSecret(dataDir: string, fromEnv: string | undefined): Promise<string> {
  return loadKeptSecret({
    dataDir,
    file: 'auth-secret',
    fromEnv,
    variable: 'SHADOWBOX_AUTH_SECRET',
  });
}

/**
 * A server secret: the environment variable's value when set (at least 32 characters), else one
 * made once (32 random bytes) and kept in `<dataDir>/<file>` at mode 0600.
 */
export async function loadKeptSecret(options: {
  readonly dataDir: string;
  readonly file: string;
  readonly fromEnv: string | undefined;
  readonly variable: string;
}): Promise<string> {
  const { fromEnv, variable } = options;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (fromEnv.length < 32) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `${variable} must be at least 32 characters, got ${fromEnv.length}`,
      );
    }
    return fromEnv;
  }
  const file = path.join(options.dataDir, options.file);
  const kept = await readFile(file, 'utf8').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  });
  if (kept !== null && kept.trim().length >= 32) {
    // A secret an older version wrote at 0644 (or a copied-in one) is narrowed at every start.
    await chmod(file, 0o600);
    return kept.trim();
  }
  const secret = randomBytes(32).toString('base64url');
  try {
    // `wx`: two processes starting at once keep the first one's secret.
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readFile(file, 'utf8')).trim();
  }
}
