import { chmod, lstat, mkdtemp, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { reject } from './intake-result';

/**
 * Intake never writes at the destination directly: it fills a fresh sibling directory and renames
 * it into place only when everything has passed, so a rejection or a crash leaves DIR absent.
 */
export interface Staging {
  readonly destination: string;
  readonly root: string;
  /** Moves the staged tree to the destination (stripping a single top-level folder if asked). */
  commit(options: { stripSingleTopFolder: boolean }): Promise<void>;
  /** Removes everything staged. Safe to call twice and after commit. */
  discard(): Promise<void>;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

export async function openStaging(into: string): Promise<Staging> {
  const destination = resolve(into);
  if (await exists(destination)) {
    throw reject('INTAKE_DESTINATION_EXISTS', 'the destination already exists', { into });
  }
  const parent = dirname(destination);
  const parentStat = await stat(parent).catch(() => null);
  if (parentStat === null || !parentStat.isDirectory()) {
    throw reject('INVALID_ARGUMENT', 'the destination’s parent directory does not exist', { into });
  }
  const root = await mkdtemp(join(parent, `.${basename(destination)}.intake-`));
  let committed = false;
  return {
    destination,
    root,
    async commit({ stripSingleTopFolder }) {
      await chmod(root, 0o755);
      const top = await readdir(root, { withFileTypes: true });
      const only = top.length === 1 ? top[0] : undefined;
      const source =
        stripSingleTopFolder && only?.isDirectory() === true ? join(root, only.name) : root;
      try {
        await rename(source, destination);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST' || code === 'ENOTEMPTY') {
          throw reject('INTAKE_DESTINATION_EXISTS', 'the destination appeared during intake', {
            into,
          });
        }
        throw error;
      }
      committed = true;
      if (source !== root) await rmdir(root);
    },
    async discard() {
      if (!committed) await rm(root, { recursive: true, force: true });
    },
  };
}
