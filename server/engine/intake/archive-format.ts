import { open } from 'node:fs/promises';
import { reject } from './intake-result';

export type ArchiveFormat = 'zip' | 'tar' | 'tar.gz';

/** Decides the format from the bytes, never from the file name a client chose. */
export async function sniffArchiveFormat(file: string): Promise<ArchiveFormat> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead >= 4 && head.readUInt32LE(0) === 0x04034b50) return 'zip';
    // An archive with no entries is only an end-of-central-directory record.
    if (bytesRead >= 4 && head.readUInt32LE(0) === 0x06054b50) return 'zip';
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
    if (bytesRead === 512 && head.toString('latin1', 257, 262) === 'ustar') return 'tar';
    throw reject('ARCHIVE_UNSUPPORTED', 'not a zip, tar or tar.gz archive');
  } finally {
    await handle.close();
  }
}
