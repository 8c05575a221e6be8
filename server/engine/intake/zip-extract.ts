import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { ArchiveGate } from './archive-gate';
import type { ArchiveWriter } from './archive-writer';
import type { IntakeCaps } from './intake-caps';
import { IntakeRejection, reject } from './intake-result';
import { checkZipEntry, namesOf, type ZipEntryShape } from './zip-entry-check';

interface Admitted extends ZipEntryShape {
  readonly entry: Entry;
  readonly segments: readonly string[];
}

/** Maps what yauzl reports about a malformed archive to our codes; anything else stays a fault. */
function fromYauzl(error: unknown): unknown {
  if (error instanceof IntakeRejection || !(error instanceof Error)) return error;
  if (/encrypt/i.test(error.message)) return reject('ARCHIVE_ENCRYPTED', error.message);
  if (/bytes in the stream|size mismatch/i.test(error.message)) {
    return reject('ARCHIVE_SIZE_MISMATCH', error.message);
  }
  if ('code' in error && typeof error.code === 'string' && error.code.startsWith('E')) {
    if (error.code !== 'Z_DATA_ERROR' && error.code !== 'Z_BUF_ERROR') return error;
  }
  return reject('ARCHIVE_CORRUPT', `malformed zip: ${error.message}`);
}

function readAll(zip: ZipFile, visit: (entry: Entry) => Promise<void>): Promise<void> {
  return new Promise((resolve, rejectPromise) => {
    zip.on('error', rejectPromise);
    zip.on('end', () => {
      resolve();
    });
    zip.on('entry', (entry: Entry) => {
      visit(entry).then(() => {
        zip.readEntry();
      }, rejectPromise);
    });
    zip.readEntry();
  });
}

/**
 * Two passes with the same parser. Pass one reads the whole central directory and refuses the
 * archive before a byte is written: names, types, caps, and overlapping local records (one
 * compressed stream referenced by many entries is how a 42 kB file expands to petabytes).
 * Pass two streams each admitted entry through size-validating inflation.
 */
export async function extractZip(
  file: string,
  gate: ArchiveGate,
  writer: ArchiveWriter,
  caps: IntakeCaps,
): Promise<void> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      autoClose: false,
      // We decode names ourselves so each rule maps to its own code and the Unicode Path extra
      // field is checked too; strictFileNames keeps yauzl from rewriting backslashes.
      decodeStrings: false,
      strictFileNames: true,
      validateEntrySizes: true,
    });
  } catch (error) {
    throw fromYauzl(error);
  }
  try {
    if (zip.entryCount > caps.maxEntries) {
      throw reject('ARCHIVE_TOO_MANY_ENTRIES', `archive has more than ${caps.maxEntries} entries`);
    }
    const admitted: Admitted[] = [];
    const ranges: [number, number][] = [];
    await readAll(zip, async (entry) => {
      const { name, alternates } = namesOf(entry);
      const shape = checkZipEntry(entry, name, caps);
      for (const alternate of alternates) gate.admitAlias(alternate, name);
      const segments = gate.admit(
        name,
        shape.type,
        shape.type === 'file' ? entry.uncompressedSize : 0,
      );
      const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
      ranges.push([entry.relativeOffsetOfLocalHeader, fileDataStart + entry.compressedSize]);
      admitted.push({ ...shape, entry, segments });
    });
    ranges.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < ranges.length; i += 1) {
      if (ranges[i]![0] < ranges[i - 1]![1]) {
        throw reject('ARCHIVE_OVERLAPPING_ENTRIES', 'zip entries share or overlap their data');
      }
    }
    for (const { entry, segments, type, mode } of admitted) {
      if (type === 'dir') {
        await writer.directory(segments);
      } else {
        const open = async () => {
          const stream = await zip.openReadStreamPromise(entry);
          // yauzl re-emits inflate errors on a later tick; once the pipeline has failed (or our own
          // size check fired first) nobody listens any more, so keep a sink for those late echoes.
          stream.on('error', () => undefined);
          return stream;
        };
        await writer.file(segments, open, mode, entry.uncompressedSize, (bytes) => {
          gate.wrote(bytes);
        });
      }
      gate.entryDone(type);
    }
  } catch (error) {
    throw fromYauzl(error);
  } finally {
    zip.close();
  }
}
