import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppErrorCode } from '../../errors/app-error';
import type { IntakeCaps } from './intake-caps';
import { ingestArchive } from './ingest-archive';
import { makeIntakeSandbox, type IntakeSandbox } from '../../test-support/intake-sandbox';
import { buildZip, unicodePathExtra, type ZipEntrySpec } from '../../test-support/zip-builder';

interface AttackCase {
  readonly name: string;
  readonly entries: readonly ZipEntrySpec[];
  readonly code: AppErrorCode;
  /** Asserted too where the code alone would not tell which rule refused. */
  readonly message?: string;
  readonly caps?: Partial<IntakeCaps>;
}

const ok = (name: string, data = 'fine\n'): ZipEntrySpec => ({ name, data });
const escapeName = `sb-zip-escape-${process.pid}`;
const zeros = Buffer.alloc(2 * 1024 * 1024);
const innerData = Buffer.from('quoted payload');
// The local record (header + name + data) of a one-entry stored zip, ready to be quoted.
const innerRecord = buildZip([{ name: 'inner.bin', data: innerData, method: 0 }]).subarray(
  0,
  30 + 'inner.bin'.length + innerData.length,
);

const noise = randomBytes(2 * 1024 * 1024); // incompressible: takes the streaming path

const cases: AttackCase[] = [
  {
    name: 'zip-slip ../',
    entries: [ok('a.txt'), ok('../evil.txt')],
    code: 'ARCHIVE_PATH_TRAVERSAL',
  },
  {
    name: 'deep ../../.. to /tmp',
    entries: [ok(`../../../../../../../../../../tmp/${escapeName}`)],
    code: 'ARCHIVE_PATH_TRAVERSAL',
  },
  {
    name: 'traversal after a real folder',
    entries: [ok('src/../../evil.txt')],
    code: 'ARCHIVE_PATH_TRAVERSAL',
  },
  { name: 'absolute path', entries: [ok(`/tmp/${escapeName}`)], code: 'ARCHIVE_PATH_ABSOLUTE' },
  {
    name: 'drive letter with slash',
    entries: [ok('C:/Windows/evil.txt')],
    code: 'ARCHIVE_PATH_ABSOLUTE',
  },
  { name: 'drive-relative name', entries: [ok('C:evil.txt')], code: 'ARCHIVE_PATH_ABSOLUTE' },
  {
    name: 'backslash traversal (classic zip-slip sample)',
    entries: [ok('..\\..\\evil.txt')],
    code: 'ARCHIVE_PATH_INVALID',
  },
  { name: 'backslash separator', entries: [ok('dir\\file.txt')], code: 'ARCHIVE_PATH_INVALID' },
  { name: 'NUL in name', entries: [ok('safe.txt\u0000../../evil')], code: 'ARCHIVE_PATH_INVALID' },
  { name: 'newline in name', entries: [ok('a\nb.txt')], code: 'ARCHIVE_PATH_INVALID' },
  {
    name: 'invalid UTF-8 name',
    entries: [{ name: Buffer.from([0x61, 0xff, 0xfe]), data: 'x' }],
    code: 'ARCHIVE_PATH_INVALID',
  },
  { name: 'empty segment', entries: [ok('a//b.txt')], code: 'ARCHIVE_PATH_INVALID' },
  {
    name: 'traversal hidden in the Unicode Path extra field',
    entries: [{ name: 'good.txt', data: 'x', extra: unicodePathExtra('good.txt', '../evil.txt') }],
    code: 'ARCHIVE_PATH_TRAVERSAL',
  },
  {
    name: 'Unicode Path extra field naming another file',
    entries: [{ name: 'good.txt', data: 'x', extra: unicodePathExtra('good.txt', 'other.txt') }],
    code: 'ARCHIVE_PATH_INVALID',
  },
  {
    name: 'symlink entry',
    entries: [{ name: 'link', data: '/etc/passwd', unixMode: 0o120777 }],
    code: 'ARCHIVE_LINK',
    message: "link 'link' has an absolute target (/etc/passwd)",
  },
  {
    name: 'symlink then file through it',
    entries: [{ name: 'd', data: '/tmp', unixMode: 0o120777 }, ok('d/evil.txt')],
    code: 'ARCHIVE_LINK',
    message: "link 'd' has an absolute target (/tmp)",
  },
  {
    name: 'FIFO entry',
    entries: [{ name: 'fifo', unixMode: 0o010644 }],
    code: 'ARCHIVE_SPECIAL_FILE',
  },
  {
    name: 'character device entry',
    entries: [{ name: 'tty', unixMode: 0o020644 }],
    code: 'ARCHIVE_SPECIAL_FILE',
  },
  {
    name: 'socket entry',
    entries: [{ name: 'sock', unixMode: 0o140644 }],
    code: 'ARCHIVE_SPECIAL_FILE',
  },
  {
    name: 'traditional encryption flag',
    entries: [{ ...ok('secret.txt'), flags: 0x801 }],
    code: 'ARCHIVE_ENCRYPTED',
  },
  {
    name: 'strong encryption flag',
    entries: [{ ...ok('secret.txt'), flags: 0x841 }],
    code: 'ARCHIVE_ENCRYPTED',
  },
  {
    name: 'duplicate names',
    entries: [ok('a.txt', 'one'), ok('a.txt', 'two')],
    code: 'ARCHIVE_DUPLICATE_PATH',
  },
  {
    name: 'case collision',
    entries: [ok('README.md'), ok('readme.md')],
    code: 'ARCHIVE_PATH_COLLISION',
  },
  {
    name: 'NFC/NFD collision',
    entries: [ok('caf\u00e9.txt'), ok('cafe\u0301.txt')],
    code: 'ARCHIVE_PATH_COLLISION',
  },
  {
    name: 'folder case collision',
    entries: [ok('Src/a.txt'), ok('src/b.txt')],
    code: 'ARCHIVE_PATH_COLLISION',
  },
  {
    name: 'file then folder of the same name',
    entries: [ok('a'), ok('a/b.txt')],
    code: 'ARCHIVE_PATH_COLLISION',
  },
  {
    name: 'overlapping entries: two records, one local file (Fifield full overlap)',
    entries: [ok('a.txt', 'payload'), { ...ok('b.txt', 'payload'), shareLocalWith: { index: 0 } }],
    code: 'ARCHIVE_OVERLAPPING_ENTRIES',
  },
  {
    name: 'overlapping entries: a complete local record quoted inside another entry’s data',
    entries: [
      { name: 'outer.bin', data: innerRecord, method: 0 },
      { name: 'inner.bin', data: innerData, method: 0, shareLocalWith: { index: 0, delta: 39 } },
    ],
    code: 'ARCHIVE_OVERLAPPING_ENTRIES',
  },
  {
    name: 'high-ratio entry (2 MiB of zeros)',
    entries: [{ name: 'zeros.bin', data: zeros }],
    code: 'ARCHIVE_BOMB',
  },
  {
    name: 'size lie: more bytes than declared',
    entries: [{ name: 'lie.txt', data: 'x'.repeat(5000), declaredUncompressedSize: 100 }],
    code: 'ARCHIVE_SIZE_MISMATCH',
  },
  {
    name: 'size lie: fewer bytes than declared',
    entries: [{ name: 'lie.txt', data: 'x'.repeat(1000), declaredUncompressedSize: 2000 }],
    code: 'ARCHIVE_SIZE_MISMATCH',
  },
  {
    name: 'stored entry whose sizes disagree',
    entries: [{ name: 'lie.txt', data: 'abc', method: 0, declaredUncompressedSize: 9 }],
    code: 'ARCHIVE_SIZE_MISMATCH',
  },
  {
    name: 'size lie on a large (streamed) entry: more than declared',
    entries: [{ name: 'big.bin', data: noise, declaredUncompressedSize: 1_500_000 }],
    code: 'ARCHIVE_SIZE_MISMATCH',
  },
  {
    name: 'size lie on a large (streamed) entry: fewer than declared',
    entries: [{ name: 'big.bin', data: noise, declaredUncompressedSize: 3_000_000 }],
    code: 'ARCHIVE_SIZE_MISMATCH',
  },
  {
    name: 'local header naming another file than the central directory',
    entries: [{ ...ok('innocent.txt'), localName: '../../evil.sh' }],
    code: 'ARCHIVE_CORRUPT',
  },
  {
    name: 'CRC-32 mismatch',
    entries: [{ ...ok('a.txt', 'payload'), crc: 0x12345678 }],
    code: 'ARCHIVE_CORRUPT',
  },
  {
    name: 'too many entries',
    entries: Array.from({ length: 11 }, (_, i) => ok(`f${i}.txt`)),
    caps: { maxEntries: 10 },
    code: 'ARCHIVE_TOO_MANY_ENTRIES',
  },
  { name: 'over-long name', entries: [ok('n'.repeat(4097))], code: 'ARCHIVE_PATH_TOO_LONG' },
  {
    name: 'a 300-byte segment (ENAMETOOLONG on extraction)',
    entries: [ok(`src/${'n'.repeat(300)}.py`)],
    code: 'ARCHIVE_PATH_TOO_LONG',
    message: 'entry rejected: name has a segment longer than 255 bytes',
  },
  {
    name: 'deep nesting (65 levels)',
    entries: [ok(`${'d/'.repeat(64)}f.txt`)],
    code: 'ARCHIVE_PATH_TOO_DEEP',
  },
  {
    name: 'single file over the cap',
    entries: [ok('big.txt', 'y'.repeat(2000))],
    caps: { maxFileBytes: 1000 },
    code: 'ARCHIVE_ENTRY_TOO_LARGE',
  },
  {
    name: 'total over the cap',
    entries: [ok('a.txt', 'a'.repeat(600)), ok('b.txt', 'b'.repeat(600))],
    caps: { maxTotalBytes: 1000 },
    code: 'ARCHIVE_TOO_LARGE',
  },
  {
    name: '.git/config',
    entries: [ok('.git/config', '[core]\n\tfsmonitor = evil\n')],
    code: 'ARCHIVE_RESERVED_NAME',
  },
  {
    name: '.GIT/hooks (case variant)',
    entries: [ok('.GIT/hooks/post-checkout')],
    code: 'ARCHIVE_RESERVED_NAME',
  },
  {
    name: 'git~1 (8.3 short name)',
    entries: [ok('sub/git~1/config')],
    code: 'ARCHIVE_RESERVED_NAME',
  },
  {
    name: '.git with HFS-ignorable code point',
    entries: [ok('.g\u200cit/config')],
    code: 'ARCHIVE_RESERVED_NAME',
  },
  {
    name: 'unsupported compression (bzip2)',
    entries: [{ ...ok('a.txt'), method: 12 }],
    code: 'ARCHIVE_UNSUPPORTED',
  },
  {
    name: 'corrupt deflate stream',
    entries: [{ name: 'bad.txt', rawBody: Buffer.alloc(16, 0xff), declaredUncompressedSize: 10 }],
    code: 'ARCHIVE_CORRUPT',
  },
];

describe('zip attack corpus', () => {
  let sandbox: IntakeSandbox;
  afterEach(async () => {
    await sandbox.dispose();
  });

  it.each(cases)('rejects $name with $code', async ({ entries, code, message, caps }) => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(buildZip(entries));
    const result = await ingestArchive({ archive, into: sandbox.into, caps: caps ?? {} });
    expect(result.ok ? 'accepted' : result.error.code).toBe(code);
    if (message !== undefined) expect(!result.ok && result.error.message).toBe(message);
    await sandbox.assertPristine();
    expect(existsSync(`/tmp/${escapeName}`)).toBe(false);
  });
});
