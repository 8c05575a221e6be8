import { open, type FileHandle } from 'node:fs/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { ArchiveGate } from './archive-gate';
import type { ArchiveWriter } from './archive-writer';
import type { IntakeCaps } from './intake-caps';
import { IntakeRejection, reject } from './intake-result';
import { checkZipEntry, namesOf, type ZipEntryShape } from './zip-entry-check';
import { readSmallEntry, smallEntryBytes } from './zip-entry-data';

interface Admitted extends ZipEntryShape {
  readonly entry: Entry;
  readonly segments: readonly string[];
  readonly fileDataStart: number;
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

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A link's target is its data: at most 4 KiB (checkZipEntry), CRC-checked, UTF-8. */
async function readLinkTarget(
  archive: FileHandle,
  entry: Entry,
  fileDataStart: number,
  name: string,
): Promise<string> {
  const data = await readSmallEntry(archive, entry, fileDataStart);
  try {
    return utf8.decode(data);
  } catch {
    throw reject('ARCHIVE_LINK', `link '${name}' has a target that is not valid UTF-8`, {
      entry: name,
    });
  }
}

/**
 * Pass one: every entry judged and located, and every link judged against the whole archive,
 * before a byte is written.
 */
async function admitAll(
  zip: ZipFile,
  archive: FileHandle,
  gate: ArchiveGate,
  caps: IntakeCaps,
): Promise<Admitted[]> {
  if (zip.entryCount > caps.maxEntries) {
    throw reject('ARCHIVE_TOO_MANY_ENTRIES', `archive has more than ${caps.maxEntries} entries`);
  }
  const admitted: Admitted[] = [];
  let renamed: string | undefined;
  await readAll(zip, async (entry) => {
    const { name, alternates } = namesOf(entry);
    const shape = checkZipEntry(entry, name, caps);
    for (const alternate of alternates) gate.admitAlias(alternate, name);
    const size = shape.type === 'file' ? entry.uncompressedSize : 0;
    const segments = gate.admit(name, shape.type, size);
    const local = await zip.readLocalFileHeaderPromise(entry);
    if (!local.fileName.equals(entry.fileNameRaw)) renamed ??= name;
    if (shape.type === 'link') {
      gate.admitLinkTarget(
        segments,
        await readLinkTarget(archive, entry, local.fileDataStart, name),
      );
    }
    admitted.push({ ...shape, entry, segments, fileDataStart: local.fileDataStart });
  });
  const ranges = admitted
    .map((a): [number, number] => [
      a.entry.relativeOffsetOfLocalHeader,
      a.fileDataStart + a.entry.compressedSize,
    ])
    .sort((a, b) => a[0] - b[0]);
  ranges.reduce((previousEnd, [start, end]) => {
    if (start < previousEnd) {
      throw reject('ARCHIVE_OVERLAPPING_ENTRIES', 'zip entries share or overlap their data');
    }
    return end;
  }, 0);
  // Checked after the overlap rule, which explains a shared local header better. Extractors that
  // walk local headers would otherwise write another name than the one we checked.
  if (renamed !== undefined) {
    throw reject('ARCHIVE_CORRUPT', 'local header name differs from the central directory', {
      entry: renamed,
    });
  }
  gate.acceptedLinks();
  return admitted;
}

/**
 * Two passes with the same parser. Pass one reads the whole central directory and refuses the
 * archive before a byte is written: names, types, caps, and overlapping local records (one
 * compressed stream referenced by many entries is how a 42 kB file expands to petabytes).
 * Pass two writes each admitted file and directory, checking its size (and, for small ones, its
 * CRC-32); links are left to the caller, which creates them after the last file.
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
  const handle = await open(file, 'r');
  try {
    const wrote = (bytes: number): void => {
      gate.wrote(bytes);
    };
    for (const admitted of await admitAll(zip, handle, gate, caps)) {
      const { entry, segments, type, mode, fileDataStart } = admitted;
      if (type === 'link') continue;
      if (type === 'dir') {
        await writer.directory(segments);
      } else if (entry.uncompressedSize <= smallEntryBytes) {
        const data = await readSmallEntry(handle, entry, fileDataStart);
        await writer.file(segments, () => Promise.resolve([data]), mode, data.length, wrote);
      } else {
        const stream = async () => {
          const readable = await zip.openReadStreamPromise(entry);
          // yauzl re-emits inflate errors on a later tick; after our own size check has failed
          // nobody listens any more, so keep a sink for those late echoes.
          readable.on('error', () => undefined);
          return readable;
        };
        await writer.file(segments, stream, mode, entry.uncompressedSize, wrote);
      }
      gate.entryDone(type);
    }
  } catch (error) {
    throw fromYauzl(error);
  } finally {
    await handle.close();
    zip.close();
  }
}
