import { createReadStream } from 'node:fs';
import { Parser, type ReadEntry } from 'tar';
import type { ArchiveGate } from './archive-gate';
import type { ArchiveWriter } from './archive-writer';
import type { IntakeCaps } from './intake-caps';
import { IntakeRejection, reject } from './intake-result';

const fileTypes = new Set(['File', 'OldFile', 'ContiguousFile']);
const specialTypes = new Set(['CharacterDevice', 'BlockDevice', 'FIFO']);

/** Refuses every entry type but files, directories and symlinks; the filter never skips one. */
function kindOf(entry: ReadEntry): 'file' | 'dir' | 'link' {
  if (fileTypes.has(entry.type)) return 'file';
  if (entry.type === 'Directory') return 'dir';
  if (entry.type === 'SymbolicLink') return 'link';
  const details = { entry: entry.path, type: entry.type };
  if (entry.type === 'Link') throw reject('ARCHIVE_LINK', 'hardlinks are not accepted', details);
  if (specialTypes.has(entry.type)) {
    throw reject('ARCHIVE_SPECIAL_FILE', 'devices and FIFOs are not accepted', details);
  }
  throw reject('ARCHIVE_UNSUPPORTED', `tar entry type ${entry.type} is not supported`, details);
}

function fromTar(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  if (error instanceof IntakeRejection) return error;
  if (/decompression ratio/i.test(error.message)) return reject('ARCHIVE_BOMB', error.message);
  const code = (error as { code?: unknown }).code;
  const tarCode = (error as { tarCode?: unknown }).tarCode;
  if (tarCode !== undefined || (typeof code === 'string' && code.startsWith('Z_'))) {
    return reject('ARCHIVE_CORRUPT', `malformed tar: ${error.message}`);
  }
  return error;
}

/**
 * Streams a tar or tar.gz through node-tar's strict parser. Every entry is judged at its header
 * (type, path, caps) and written by our own exclusive-create writer; the first violation aborts the
 * parse and the whole extraction fails. Symlinks are only admitted here: the caller judges them
 * against the whole archive and creates them after the last file.
 */
export function extractTar(
  file: string,
  gate: ArchiveGate,
  writer: ArchiveWriter,
  caps: IntakeCaps,
): Promise<void> {
  return new Promise((resolve, rejectPromise) => {
    const source = createReadStream(file);
    let failed = false;
    let work = Promise.resolve();
    const admitted = new WeakMap<ReadEntry, readonly string[]>();
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      source.destroy();
      parser.abort(new Error('intake rejected the archive'));
      rejectPromise(fromTar(error));
    };
    const parser = new Parser({
      strict: true,
      maxDecompressionRatio: caps.maxRatio,
      filter: (_path, entry) => {
        if (failed) return false;
        try {
          const read = entry as ReadEntry;
          const kind = kindOf(read);
          const segments = gate.admit(read.path, kind, kind === 'file' ? read.size : 0);
          if (kind === 'link') gate.admitLinkTarget(segments, read.linkpath ?? '');
          admitted.set(read, segments);
          return true;
        } catch (error) {
          fail(error);
          return false;
        }
      },
      onReadEntry: (entry) => {
        const segments = admitted.get(entry);
        work = work.then(async () => {
          if (failed || segments === undefined) {
            entry.resume();
            return;
          }
          if (entry.type === 'SymbolicLink') {
            entry.resume(); // created by the caller once every file is written
            return;
          }
          if (entry.type === 'Directory') {
            entry.resume(); // node-tar moves on to the next header only once this one has ended
            await writer.directory(segments);
          } else {
            const open = () => Promise.resolve(entry);
            await writer.file(segments, open, entry.mode ?? 0, entry.size, (n) => {
              gate.wrote(n);
            });
          }
          gate.entryDone(entry.type === 'Directory' ? 'dir' : 'file');
        });
        work.catch(fail);
      },
    });
    // PAX and GNU long-name records arrive here raw; node-tar cuts values at the first NUL, which
    // would silently turn `a\0/../../x` into `a`. A NUL anywhere but the terminator is refused.
    parser.on('meta', (meta: string) => {
      if (meta.replace(/\0+$/, '').includes('\0')) {
        fail(reject('ARCHIVE_PATH_INVALID', 'an extended header holds a NUL character'));
      }
    });
    parser.on('ignoredEntry', (entry: ReadEntry) => {
      fail(reject('ARCHIVE_UNSUPPORTED', 'tar entry was not understood', { entry: entry.path }));
    });
    parser.on('error', fail);
    parser.on('abort', fail);
    parser.on('end', () => {
      work.then(() => {
        if (!failed) resolve();
      }, fail);
    });
    source.on('error', fail);
    source.pipe(parser);
  });
}
