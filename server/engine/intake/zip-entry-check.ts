import type { Entry } from 'yauzl';
import type { IntakeCaps } from './intake-caps';
import { reject } from './intake-result';
import { maxLinkTargetBytes } from './link-target';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const unicodePathField = 0x7075;
const sTypeMask = 0o170000;
const sRegular = 0o100000;
const sDirectory = 0o040000;
const sSymlink = 0o120000;

function decodeName(raw: Buffer, what: string): string {
  try {
    return utf8.decode(raw);
  } catch {
    throw reject('ARCHIVE_PATH_INVALID', `${what} is not valid UTF-8`);
  }
}

/**
 * Every name the entry carries: the header name and, when present, the Info-ZIP Unicode Path extra
 * field that many extractors prefer over it. Both are checked, so a traversal cannot hide in the one
 * an extractor happens to read.
 */
export function namesOf(entry: Entry): { name: string; alternates: string[] } {
  const name = decodeName(entry.fileNameRaw, 'entry name');
  const alternates: string[] = [];
  for (const field of entry.extraFields) {
    if (field.id === unicodePathField && field.data.length >= 5) {
      alternates.push(decodeName(field.data.subarray(5), 'Unicode path extra field'));
    }
  }
  return { name, alternates };
}

export interface ZipEntryShape {
  readonly type: 'file' | 'dir' | 'link';
  readonly mode: number;
}

/**
 * Classifies an entry and refuses encrypted, special and bomb-shaped ones, and links whose target
 * (their data) could be longer than a path. A link's target is judged later, with the whole archive.
 */
export function checkZipEntry(entry: Entry, name: string, caps: IntakeCaps): ZipEntryShape {
  if ((entry.generalPurposeBitFlag & 0x41) !== 0) {
    throw reject('ARCHIVE_ENCRYPTED', 'encrypted zip entries are not accepted', { entry: name });
  }
  // The upper 16 bits of the external attributes hold a Unix st_mode whenever an archiver set them.
  const unixMode = entry.externalFileAttributes >>> 16;
  const fileType = unixMode & sTypeMask;
  const isLink = fileType === sSymlink;
  // Deflate may add a few bytes to what it stores; anything beyond that is not a path.
  if (
    isLink &&
    (entry.uncompressedSize > maxLinkTargetBytes || entry.compressedSize > maxLinkTargetBytes + 64)
  ) {
    throw reject(
      'ARCHIVE_LINK',
      `link '${name}' has a target longer than ${maxLinkTargetBytes} bytes`,
      {
        entry: name,
      },
    );
  }
  if (!isLink && fileType !== 0 && fileType !== sRegular && fileType !== sDirectory) {
    throw reject('ARCHIVE_SPECIAL_FILE', 'devices, FIFOs and sockets are not accepted', {
      entry: name,
    });
  }
  const isDir = !isLink && (name.endsWith('/') || fileType === sDirectory);
  if (isDir && (!name.endsWith('/') || entry.uncompressedSize !== 0)) {
    throw reject('ARCHIVE_CORRUPT', 'directory entry has data or lacks a trailing `/`', {
      entry: name,
    });
  }
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw reject(
      'ARCHIVE_UNSUPPORTED',
      `compression method ${entry.compressionMethod} is not supported`,
      {
        entry: name,
      },
    );
  }
  const exempt = entry.uncompressedSize <= caps.ratioExemptBytes;
  if (!exempt && entry.uncompressedSize > caps.maxRatio * Math.max(entry.compressedSize, 1)) {
    throw reject('ARCHIVE_BOMB', `entry expands more than ${caps.maxRatio}:1`, { entry: name });
  }
  return { type: isLink ? 'link' : isDir ? 'dir' : 'file', mode: unixMode & 0o777 };
}
