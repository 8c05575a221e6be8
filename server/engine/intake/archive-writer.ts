import { constants } from 'node:fs';
import { chmod, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { reject } from './intake-result';

/** Only two modes survive intake: executable or not. Setuid, setgid, sticky and odd bits are dropped. */
export const fileModeOf = (sourceMode: number): number =>
  (sourceMode & 0o111) !== 0 ? 0o755 : 0o644;

// Exclusive create refuses to reuse anything already there; no-follow refuses a symlink at the leaf.
const createFlags =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Writes into a staging root that intake itself created empty and into which it only ever puts
 * directories and regular files, so no path component can be a link.
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
   * Streams one file (its source opened only once the target exists), failing with ARCHIVE_SIZE_MISMATCH as soon as it grows past `declaredSize`
   * (the stream's own end check catches a short one) and reporting every chunk to `onBytes`.
   */
  async file(
    segments: readonly string[],
    openSource: () => Promise<AsyncIterable<Buffer>>,
    sourceMode: number,
    declaredSize: number,
    onBytes: (bytes: number) => void,
  ): Promise<number> {
    await this.directory(segments.slice(0, -1));
    const handle = await open(join(this.root, ...segments), createFlags, 0o600);
    let written = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        written += chunk.length;
        if (written > declaredSize) {
          callback(
            reject('ARCHIVE_SIZE_MISMATCH', 'entry holds more bytes than it declares', {
              entry: segments.join('/'),
            }),
          );
          return;
        }
        try {
          onBytes(chunk.length);
        } catch (error) {
          callback(error as Error);
          return;
        }
        callback(null, chunk);
      },
    });
    let sink;
    try {
      await handle.chmod(fileModeOf(sourceMode));
      sink = handle.createWriteStream(); // owns the descriptor from here on, closing it on any end
    } catch (error) {
      await handle.close();
      throw error;
    }
    // The source is opened only now so that no error it raises can fire before pipeline listens.
    await pipeline(await openSource(), counter, sink);
    if (written !== declaredSize) {
      throw reject('ARCHIVE_SIZE_MISMATCH', 'entry holds fewer bytes than it declares', {
        entry: segments.join('/'),
      });
    }
    return written;
  }
}
