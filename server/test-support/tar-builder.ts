import { gzipSync } from 'node:zlib';

/** A raw ustar writer for the attack corpus: types, modes, PAX and GNU records are taken as given. */
export interface TarEntrySpec {
  readonly name: string;
  /** ustar typeflag: '0' file, '1' hardlink, '2' symlink, '3' char, '4' block, '5' dir, '6' FIFO… */
  readonly type?: string;
  readonly data?: Buffer | string;
  readonly mode?: number;
  readonly linkname?: string;
  /** Emitted as a PAX extended header ('x') right before the entry. */
  readonly pax?: Readonly<Record<string, string>>;
  /** Emitted as a GNU long-name record ('L') right before the entry (NUL-terminated). */
  readonly gnuLongName?: string;
  readonly corruptChecksum?: boolean;
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, type: string, size: number, spec: Partial<TarEntrySpec>): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(spec.mode ?? (type === '5' ? 0o755 : 0o644), 8), 100, 'latin1');
  block.write(octal(0, 8), 108, 'latin1');
  block.write(octal(0, 8), 116, 'latin1');
  block.write(octal(size, 12), 124, 'latin1');
  block.write(octal(0, 12), 136, 'latin1');
  block.write(type, 156, 1, 'latin1');
  block.write(spec.linkname ?? '', 157, 100, 'utf8');
  block.write('ustar\u000000', 257, 8, 'latin1');
  block.write('        ', 148, 8, 'latin1');
  let sum = 0;
  for (const byte of block) sum += byte;
  if (spec.corruptChecksum === true) sum += 1;
  block.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'latin1');
  return block;
}

function padded(data: Buffer): Buffer {
  const rest = data.length % 512;
  return rest === 0 ? data : Buffer.concat([data, Buffer.alloc(512 - rest)]);
}

function paxRecords(values: Readonly<Record<string, string>>): Buffer {
  const records = Object.entries(values).map(([key, value]) => {
    const body = ` ${key}=${value}\n`;
    let length = Buffer.byteLength(body) + 1;
    while (String(length).length + Buffer.byteLength(body) !== length) length += 1;
    return Buffer.from(`${length}${body}`, 'utf8');
  });
  return Buffer.concat(records);
}

export function buildTar(entries: readonly TarEntrySpec[]): Buffer {
  const blocks: Buffer[] = [];
  for (const spec of entries) {
    if (spec.pax !== undefined) {
      const records = paxRecords(spec.pax);
      blocks.push(header('PaxHeader', 'x', records.length, {}), padded(records));
    }
    if (spec.gnuLongName !== undefined) {
      const long = Buffer.from(`${spec.gnuLongName}\0`, 'utf8');
      blocks.push(header('././@LongLink', 'L', long.length, {}), padded(long));
    }
    const data =
      typeof spec.data === 'string' ? Buffer.from(spec.data) : (spec.data ?? Buffer.alloc(0));
    blocks.push(header(spec.name, spec.type ?? '0', data.length, spec), padded(data));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export const buildTarGz = (entries: readonly TarEntrySpec[]): Buffer => gzipSync(buildTar(entries));
