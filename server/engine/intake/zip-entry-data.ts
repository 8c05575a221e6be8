import type { FileHandle } from 'node:fs/promises';
import { crc32, inflateRawSync } from 'node:zlib';
import type { Entry } from 'yauzl';
import { reject } from './intake-result';

/** Entries up to this size are read and inflated in one call instead of through a stream. */
export const smallEntryBytes = 1024 * 1024;

/**
 * Reads one small entry whose data range pass one has already located and checked for overlap:
 * the raw bytes in one read, inflation capped at the declared size (so a lie cannot allocate more),
 * then the exact length and the CRC-32 the archive declares.
 */
export async function readSmallEntry(
  archive: FileHandle,
  entry: Entry,
  fileDataStart: number,
): Promise<Buffer> {
  const name = entry.fileNameRaw.toString('utf8');
  const raw = Buffer.alloc(entry.compressedSize);
  const { bytesRead } = await archive.read(raw, 0, raw.length, fileDataStart);
  if (bytesRead !== raw.length)
    throw reject('ARCHIVE_CORRUPT', 'entry data is truncated', { entry: name });
  let data: Buffer;
  if (entry.compressionMethod === 0) {
    data = raw;
  } else {
    try {
      data = inflateRawSync(raw, { maxOutputLength: Math.max(entry.uncompressedSize, 1) });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
        throw reject('ARCHIVE_SIZE_MISMATCH', 'entry holds more bytes than it declares', {
          entry: name,
        });
      }
      throw reject('ARCHIVE_CORRUPT', `malformed deflate data: ${(error as Error).message}`, {
        entry: name,
      });
    }
  }
  if (data.length !== entry.uncompressedSize) {
    throw reject('ARCHIVE_SIZE_MISMATCH', 'entry size differs from what it declares', {
      entry: name,
    });
  }
  if (crc32(data) !== entry.crc32) {
    throw reject('ARCHIVE_CORRUPT', 'entry CRC-32 does not match its data', { entry: name });
  }
  return data;
}
