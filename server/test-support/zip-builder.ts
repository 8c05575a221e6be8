import { crc32, deflateRawSync } from 'node:zlib';

/**
 * A raw zip writer for the attack corpus: every header field can be set to a lie. Nothing here
 * validates anything; that is the point.
 */
export interface ZipEntrySpec {
  readonly name: string | Buffer;
  readonly data?: Buffer | string;
  /** 0 stored, 8 deflate (default), anything else is written as-is. */
  readonly method?: number;
  /** Unix st_mode placed in the high 16 bits of the external attributes. */
  readonly unixMode?: number;
  readonly flags?: number;
  readonly extra?: Buffer;
  /** A different name for the local header only (the central directory keeps `name`). */
  readonly localName?: string;
  /** A CRC-32 to declare instead of the real one. */
  readonly crc?: number;
  /** Bytes stored as the entry's (compressed) data instead of compressing `data`. */
  readonly rawBody?: Buffer;
  readonly declaredUncompressedSize?: number;
  /** Overrides the compressed size in the central directory only. */
  readonly declaredCompressedSize?: number;
  /** Point the central record at another entry's local header (plus `delta` bytes). */
  readonly shareLocalWith?: { readonly index: number; readonly delta?: number };
}

const utf8Flag = 0x800;

function localHeader(
  name: Buffer,
  spec: ZipEntrySpec,
  body: Buffer,
  crc: number,
  size: number,
): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(spec.flags ?? utf8Flag, 6);
  header.writeUInt16LE(spec.method ?? 8, 8);
  header.writeUInt32LE(crc, 14);
  header.writeUInt32LE(body.length, 18);
  header.writeUInt32LE(size, 22);
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(spec.extra?.length ?? 0, 28);
  return Buffer.concat([header, name, spec.extra ?? Buffer.alloc(0)]);
}

export function buildZip(entries: readonly ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const spec of entries) {
    const name = typeof spec.name === 'string' ? Buffer.from(spec.name, 'utf8') : spec.name;
    const data =
      typeof spec.data === 'string' ? Buffer.from(spec.data) : (spec.data ?? Buffer.alloc(0));
    const method = spec.method ?? 8;
    const body = spec.rawBody ?? (method === 8 ? deflateRawSync(data) : data);
    const crc = spec.crc ?? crc32(data);
    const size = spec.declaredUncompressedSize ?? data.length;
    let localOffset = offset;
    if (spec.shareLocalWith === undefined) {
      const localName = spec.localName === undefined ? name : Buffer.from(spec.localName, 'utf8');
      const local = Buffer.concat([localHeader(localName, spec, body, crc, size), body]);
      locals.push(local);
      offsets.push(offset);
      offset += local.length;
    } else {
      localOffset = (offsets[spec.shareLocalWith.index] ?? 0) + (spec.shareLocalWith.delta ?? 0);
      offsets.push(localOffset);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4); // made by Unix, spec 3.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(spec.flags ?? utf8Flag, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(spec.declaredCompressedSize ?? body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(spec.extra?.length ?? 0, 30);
    central.writeUInt32LE(((spec.unixMode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(localOffset, 42);
    centrals.push(Buffer.concat([central, name, spec.extra ?? Buffer.alloc(0)]));
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The Info-ZIP Unicode Path extra field (0x7075) carrying `unicodeName` for header name `name`. */
export function unicodePathExtra(name: string, unicodeName: string): Buffer {
  const unicode = Buffer.from(unicodeName, 'utf8');
  const field = Buffer.alloc(4 + 5 + unicode.length);
  field.writeUInt16LE(0x7075, 0);
  field.writeUInt16LE(5 + unicode.length, 2);
  field.writeUInt8(1, 4);
  field.writeUInt32LE(crc32(Buffer.from(name, 'utf8')), 5);
  unicode.copy(field, 9);
  return field;
}
