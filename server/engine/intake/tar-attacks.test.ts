import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppErrorCode } from '../../errors/app-error';
import type { IntakeCaps } from './intake-caps';
import { ingestArchive } from './ingest-archive';
import { makeIntakeSandbox, type IntakeSandbox } from '../../test-support/intake-sandbox';
import { buildTar, type TarEntrySpec } from '../../test-support/tar-builder';

interface AttackCase {
  readonly name: string;
  readonly entries: readonly TarEntrySpec[];
  readonly code: AppErrorCode;
  /** Asserted too where the code alone would not tell which rule refused. */
  readonly message?: string;
  readonly caps?: Partial<IntakeCaps>;
  readonly gzip?: boolean;
}

const ok = (name: string, data = 'fine\n'): TarEntrySpec => ({ name, data });
const escapeName = `sb-tar-escape-${process.pid}`;

const cases: AttackCase[] = [
  {
    name: '../ traversal',
    entries: [ok('a.txt'), ok('../evil.txt')],
    code: 'ARCHIVE_PATH_TRAVERSAL',
  },
  {
    name: 'deep ../../.. to /tmp',
    entries: [ok(`../../../../../../../../tmp/${escapeName}`)],
    code: 'ARCHIVE_PATH_TRAVERSAL',
  },
  { name: 'absolute path', entries: [ok(`/tmp/${escapeName}`)], code: 'ARCHIVE_PATH_ABSOLUTE' },
  { name: 'drive letter', entries: [ok('C:/evil.txt')], code: 'ARCHIVE_PATH_ABSOLUTE' },
  { name: 'backslash traversal', entries: [ok('..\\..\\evil.txt')], code: 'ARCHIVE_PATH_INVALID' },
  { name: 'control character', entries: [ok('a\u001bb.txt')], code: 'ARCHIVE_PATH_INVALID' },
  {
    name: 'symlink',
    entries: [{ name: 'link', type: '2', linkname: '/etc/passwd' }],
    code: 'ARCHIVE_LINK',
    message: "link 'link' has an absolute target (/etc/passwd)",
  },
  {
    name: 'hardlink',
    entries: [ok('a.txt'), { name: 'b.txt', type: '1', linkname: 'a.txt' }],
    code: 'ARCHIVE_LINK',
    message: 'hardlinks are not accepted',
  },
  {
    name: 'hardlink to a file outside',
    entries: [{ name: 'passwd', type: '1', linkname: '/etc/passwd' }],
    code: 'ARCHIVE_LINK',
    message: 'hardlinks are not accepted',
  },
  {
    name: 'symlink then file through the symlink',
    entries: [{ name: 'd', type: '2', linkname: '/tmp' }, ok(`d/${escapeName}`)],
    code: 'ARCHIVE_LINK',
    message: "link 'd' has an absolute target (/tmp)",
  },
  {
    name: 'directory then symlink of the same name',
    entries: [
      { name: 'd/', type: '5' },
      { name: 'd', type: '2', linkname: '/tmp' },
      ok(`d/${escapeName}`),
    ],
    code: 'ARCHIVE_LINK',
    message: "link 'd' is also a directory entry of the archive",
  },
  { name: 'character device', entries: [{ name: 'tty', type: '3' }], code: 'ARCHIVE_SPECIAL_FILE' },
  { name: 'block device', entries: [{ name: 'sda', type: '4' }], code: 'ARCHIVE_SPECIAL_FILE' },
  { name: 'FIFO', entries: [{ name: 'fifo', type: '6' }], code: 'ARCHIVE_SPECIAL_FILE' },
  {
    name: 'PAX path with NUL',
    entries: [{ ...ok('placeholder.txt'), pax: { path: 'safe.txt\u0000/../../evil.txt' } }],
    code: 'ARCHIVE_PATH_INVALID',
  },
  {
    name: 'PAX path traversal',
    entries: [{ ...ok('placeholder.txt'), pax: { path: '../../evil.txt' } }],
    code: 'ARCHIVE_PATH_TRAVERSAL',
  },
  {
    name: 'PAX linkpath on a symlink',
    entries: [{ name: 'l', type: '2', linkname: 'x', pax: { linkpath: '/etc/shadow' } }],
    code: 'ARCHIVE_LINK',
    message: "link 'l' has an absolute target (/etc/shadow)",
  },
  {
    name: 'GNU long name traversal',
    entries: [
      {
        ...ok('placeholder.txt'),
        gnuLongName: `${'x/'.repeat(60)}../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../../evil.txt`,
      },
    ],
    code: 'ARCHIVE_PATH_TRAVERSAL',
  },
  {
    name: 'GNU long name with an inner NUL',
    entries: [{ ...ok('placeholder.txt'), gnuLongName: 'safe.txt\u0000../evil.txt' }],
    code: 'ARCHIVE_PATH_INVALID',
  },
  {
    name: 'duplicate names',
    entries: [ok('a.txt', '1'), ok('a.txt', '2')],
    code: 'ARCHIVE_DUPLICATE_PATH',
  },
  {
    name: 'case collision',
    entries: [ok('Makefile'), ok('makefile')],
    code: 'ARCHIVE_PATH_COLLISION',
  },
  {
    name: 'NFC/NFD collision',
    entries: [ok('\u00e5.txt'), ok('a\u030a.txt')],
    code: 'ARCHIVE_PATH_COLLISION',
  },
  {
    name: 'file then directory of the same name',
    entries: [ok('x'), { name: 'x/', type: '5' }],
    code: 'ARCHIVE_PATH_COLLISION',
  },
  {
    name: 'too many entries',
    entries: Array.from({ length: 6 }, (_, i) => ok(`f${i}`)),
    caps: { maxEntries: 5 },
    code: 'ARCHIVE_TOO_MANY_ENTRIES',
  },
  {
    name: 'over-long PAX name',
    entries: [{ ...ok('p'), pax: { path: 'n'.repeat(5000) } }],
    code: 'ARCHIVE_PATH_TOO_LONG',
  },
  {
    name: 'a 300-byte segment (ENAMETOOLONG on extraction)',
    entries: [{ ...ok('p'), pax: { path: `src/${'n'.repeat(300)}.py` } }],
    code: 'ARCHIVE_PATH_TOO_LONG',
    message: 'entry rejected: name has a segment longer than 255 bytes',
  },
  {
    name: 'deep nesting',
    entries: [{ ...ok('p'), pax: { path: `${'d/'.repeat(70)}f` } }],
    code: 'ARCHIVE_PATH_TOO_DEEP',
  },
  {
    name: 'gzip bomb (ratio over 100:1)',
    entries: [{ name: 'zeros.bin', data: Buffer.alloc(8 * 1024 * 1024) }],
    gzip: true,
    code: 'ARCHIVE_BOMB',
  },
  {
    name: 'single file over the cap',
    entries: [ok('big', 'b'.repeat(3000))],
    caps: { maxFileBytes: 2000 },
    code: 'ARCHIVE_ENTRY_TOO_LARGE',
  },
  {
    name: 'total over the cap',
    entries: [ok('a', 'a'.repeat(700)), ok('b', 'b'.repeat(700))],
    caps: { maxTotalBytes: 1000 },
    code: 'ARCHIVE_TOO_LARGE',
  },
  {
    name: '.git/hooks/post-checkout',
    entries: [{ ...ok('.git/hooks/post-checkout'), mode: 0o755 }],
    code: 'ARCHIVE_RESERVED_NAME',
  },
  {
    name: '.git. (trailing dot) config',
    entries: [ok('.git./config')],
    code: 'ARCHIVE_RESERVED_NAME',
  },
  {
    name: 'bad header checksum',
    entries: [{ ...ok('a.txt'), corruptChecksum: true }],
    code: 'ARCHIVE_CORRUPT',
  },
  {
    name: 'GNU sparse file',
    entries: [{ name: 'sparse', type: 'S' }],
    code: 'ARCHIVE_UNSUPPORTED',
  },
  {
    name: 'GNU dump directory',
    entries: [{ name: 'dump/', type: 'D' }],
    code: 'ARCHIVE_UNSUPPORTED',
  },
];

describe('tar attack corpus', () => {
  let sandbox: IntakeSandbox;
  afterEach(async () => {
    await sandbox.dispose();
  });

  it.each(cases)('rejects $name with $code', async ({ entries, code, message, caps, gzip }) => {
    sandbox = await makeIntakeSandbox();
    const tar = buildTar(entries);
    const archive = await sandbox.writeArchive(gzip === true ? gzipSync(tar) : tar);
    const result = await ingestArchive({ archive, into: sandbox.into, caps: caps ?? {} });
    expect(result.ok ? 'accepted' : result.error.code).toBe(code);
    if (message !== undefined) expect(!result.ok && result.error.message).toBe(message);
    await sandbox.assertPristine();
    expect(existsSync(`/tmp/${escapeName}`)).toBe(false);
  });

  it('rejects a gzip stream that is cut short with ARCHIVE_CORRUPT', async () => {
    sandbox = await makeIntakeSandbox();
    const whole = gzipSync(buildTar([ok('a.txt', 'a'.repeat(50_000))]));
    const archive = await sandbox.writeArchive(whole.subarray(0, whole.length >> 1));
    const result = await ingestArchive({ archive, into: sandbox.into });
    expect(result.ok ? 'accepted' : result.error.code).toBe('ARCHIVE_CORRUPT');
    await sandbox.assertPristine();
  });
});
