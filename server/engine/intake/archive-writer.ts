import { constants } from 'node:fs';
import { chmod, mkdir, open, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { reject } from './intake-result';

/** Only two modes survive intake: executable or not. Setuid, setgid, sticky and odd bits are dropped. */
export const fileModeOf = (sourceMode: number): number =>
  (sourceMode & 0o111) !== 0 ? 0o755 : 0o644;

// Exclusive create refuses to reuse anything already there; no-follow refuses a symlink at the leaf.
const flushBytes = 1024 * 1024;
const createFlags =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Writes into a staging root that intake itself created empty. Directories and regular files come
 * first; links only once all of them are written (and no entry may lie inside a link), so no path
 * component of a file or directory written here can be a link.
 */
export class ArchiveWriter {
  readonly #made = new Set<string>();

  constructor(private readonly root: string) {}

  async directory(segments: readonly string[]): Promise<void> {
    for (let depth = 1; depth <= segments.length; depth += 1) {
      const relative = segments.slice(0, depth).join('/');
      if (this.#made.has(relative)) continue;
      const path = join(this.root, relative);
      try {
        await mkdir(path, { mode: 0o755 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      await chmod(path, 0o755);
      this.#made.add(relative);
    }
  }

  /**
   * Writes one file from its source (opened only once the target exists), failing with
   * ARCHIVE_SIZE_MISMATCH as soon as it grows past `declaredSize` or ends short of it, and
   * reporting every chunk to `onBytes` (which enforces the total cap).
   */
  async file(
    segments: readonly string[],
    openSource: () => Promise<AsyncIterable<Buffer> | Iterable<Buffer>>,
    sourceMode: number,
    declaredSize: number,
    onBytes: (bytes: number) => void,
  ): Promise<number> {
    await this.directory(segments.slice(0, -1));
    const entry = segments.join('/');
    const handle = await open(join(this.root, ...segments), createFlags, 0o600);
    try {
      await handle.chmod(fileModeOf(sourceMode));
      let written = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      // Whole small files in one write() (most source files), large ones in 1 MiB batches.
      const flush = async (): Promise<void> => {
        if (pendingBytes === 0) return;
        await handle.writeFile(Buffer.concat(pending, pendingBytes)); // loops until all is written
        pending = [];
        pendingBytes = 0;
      };
      // Opened only now, so every error the source raises reaches this loop's iterator.
      for await (const chunk of await openSource()) {
        written += chunk.length;
        if (written > declaredSize) {
          throw reject('ARCHIVE_SIZE_MISMATCH', 'entry holds more bytes than it declares', {
            entry,
          });
        }
        onBytes(chunk.length);
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= flushBytes) await flush();
      }
      await flush();
      if (written !== declaredSize) {
        throw reject('ARCHIVE_SIZE_MISMATCH', 'entry holds fewer bytes than it declares', {
          entry,
        });
      }
      return written;
    } finally {
      await handle.close();
    }
  }

  /**
   * Creates one symbolic link with its target exactly as the archive gives it (relative, checked by
   * the gate). symlink() never follows its last component and fails if anything is already there.
   */
  async link(segments: readonly string[], target: string): Promise<void> {
    await this.directory(segments.slice(0, -1));
    await symlink(target, join(this.root, ...segments));
  }
}
