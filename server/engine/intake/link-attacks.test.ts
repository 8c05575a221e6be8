import { existsSync } from 'node:fs';
import { lstat, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppErrorCode } from '../../errors/app-error';
import { ingestArchive } from './ingest-archive';
import { makeIntakeSandbox, type IntakeSandbox } from '../../test-support/intake-sandbox';
import { buildTar, buildTarGz, type TarEntrySpec } from '../../test-support/tar-builder';
import { snapshotTreeContents } from '../../test-support/tree-snapshot';
import { buildZip, type ZipEntrySpec } from '../../test-support/zip-builder';

/** One archive entry in format-neutral terms: a file (data), a directory (`/`) or a link. */
type Entry =
  | { readonly file: string; readonly data?: string }
  | { readonly dir: string }
  | { readonly link: string; readonly target: string };

const file = (name: string, data = 'fine\n'): Entry => ({ file: name, data });
const link = (name: string, target: string): Entry => ({ link: name, target });

// Zip links are entries whose external attributes carry st_mode 0120000 and whose data is the target.
function zipOf(entries: readonly Entry[]): Buffer {
  return buildZip(
    entries.map((e): ZipEntrySpec => {
      if ('link' in e) return { name: e.link, data: e.target, unixMode: 0o120777 };
      if ('dir' in e) return { name: e.dir, unixMode: 0o040755 };
      return { name: e.file, data: e.data ?? '' };
    }),
  );
}

const tarEntries = (entries: readonly Entry[]): TarEntrySpec[] =>
  entries.map((e): TarEntrySpec => {
    if ('link' in e) return { name: e.link, type: '2', linkname: e.target };
    if ('dir' in e) return { name: e.dir, type: '5' };
    return { name: e.file, data: e.data ?? '' };
  });

const formats = [
  ['zip', zipOf],
  ['tar', (entries: readonly Entry[]) => buildTar(tarEntries(entries))],
  ['tar.gz', (entries: readonly Entry[]) => buildTarGz(tarEntries(entries))],
] as const;

const escapeName = `sb-link-escape-${process.pid}`;

interface Attack {
  readonly name: string;
  readonly entries: readonly Entry[];
  readonly code: AppErrorCode;
  readonly message: string;
}

const attacks: Attack[] = [
  {
    name: 'absolute link',
    entries: [file('a.txt'), link('pw', '/etc/passwd')],
    code: 'ARCHIVE_LINK',
    message: "link 'pw' has an absolute target (/etc/passwd)",
  },
  {
    name: 'link climbing out of the tree',
    entries: [file('a/f'), link('a/b', '../../etc')],
    code: 'ARCHIVE_LINK',
    message: "link 'a/b' points outside the tree (../../etc)",
  },
  {
    name: 'chain a → b → ../.. escaping',
    entries: [file('f.txt'), link('sub/a', 'b'), link('sub/b', '../..')],
    code: 'ARCHIVE_LINK',
    message: "link 'sub/b' points outside the tree (../..)",
  },
  {
    name: 'escape only through a chain (.. after a link climbs from its target)',
    entries: [
      file('a/b/t'),
      file('s/x'),
      link('a/b/c/l', '../../../s'),
      link('x', 'a/b/c/l/../../t'),
    ],
    code: 'ARCHIVE_LINK',
    message: "link 'x' points outside the tree (a/b/c/l/../../t)",
  },
  {
    name: 'loop a → b → a',
    entries: [link('a', 'b'), link('b', 'a')],
    code: 'ARCHIVE_LINK',
    message: "link 'a' is in a loop of links ('a' → 'b' → 'a')",
  },
  {
    name: 'link to .git',
    entries: [file('f'), link('l', '.git')],
    code: 'ARCHIVE_LINK',
    message: "link 'l' points into .git",
  },
  {
    name: 'link into .git/config',
    entries: [file('f'), link('sub/l', '../.git/config')],
    code: 'ARCHIVE_LINK',
    message: "link 'sub/l' points into .git",
  },
  {
    name: 'link to the parent (..)',
    entries: [file('sub/f'), file('g'), link('sub/l', '..')],
    code: 'ARCHIVE_LINK',
    message: "link 'sub/l' points to the root of the tree (..)",
  },
  {
    name: 'link to the parent (sub/..)',
    entries: [file('sub/f'), file('g'), link('l', 'sub/..')],
    code: 'ARCHIVE_LINK',
    message: "link 'l' points to the root of the tree (sub/..)",
  },
  {
    name: 'link to its own directory (.)',
    entries: [file('sub/f'), file('g'), link('sub/l', '.')],
    code: 'ARCHIVE_LINK',
    message: "link 'sub/l' points to 'sub', a directory that holds it (.)",
  },
  {
    name: 'directory links that hold each other',
    entries: [file('a/f'), file('b/g'), link('a/l', '../b'), link('b/m', '../a')],
    code: 'ARCHIVE_LINK',
    message: "link 'a/l' is in a cycle of directory links ('a/l' → 'b/m' → 'a/l')",
  },
  {
    name: 'dangling link',
    entries: [file('docs/index.md'), link('docs/x', 'missing.md')],
    code: 'ARCHIVE_LINK',
    message: "link 'docs/x' dangles: 'missing.md' is not in the archive",
  },
  {
    name: 'file written through a link of the same archive (link first)',
    entries: [file('dir/a'), link('l', 'dir'), file('l/evil.txt')],
    code: 'ARCHIVE_LINK',
    message: "entry 'l/evil.txt' lies inside link 'l': nothing is written through a link",
  },
  {
    name: 'file written through a link of the same archive (file first)',
    entries: [file('dir/a'), file('l/evil.txt'), link('l', 'dir')],
    code: 'ARCHIVE_LINK',
    message: "link 'l' is also the directory of 'l/evil.txt': nothing is written through a link",
  },
  {
    name: 'file written through an absolute link to /tmp',
    entries: [link('d', '/tmp'), file(`d/${escapeName}`)],
    code: 'ARCHIVE_LINK',
    message: "link 'd' has an absolute target (/tmp)",
  },
  {
    name: 'link whose parent is a link',
    entries: [file('dir/a'), link('l', 'dir'), link('l/m', 'a')],
    code: 'ARCHIVE_LINK',
    message: "entry 'l/m' lies inside link 'l': nothing is written through a link",
  },
  {
    name: 'link over a directory entry',
    entries: [{ dir: 'd/' }, file('x'), link('d', 'x')],
    code: 'ARCHIVE_LINK',
    message: "link 'd' is also a directory entry of the archive",
  },
  {
    // With `sub/` the only top-level entry, `sub` becomes DIR and `..` its parent.
    name: 'link to the parent of a single top folder',
    entries: [file('sub/f'), link('sub/l', '..')],
    code: 'ARCHIVE_LINK',
    message: "link 'sub/l' points outside the tree (..)",
  },
  {
    name: 'link escaping the single top folder that is stripped',
    entries: [file('proj/README.md'), link('proj/l', '../proj/README.md')],
    code: 'ARCHIVE_LINK',
    message: "link 'proj/l' points outside the tree (../proj/README.md)",
  },
  {
    name: 'the same link twice',
    entries: [file('f'), link('l', 'f'), link('l', 'f')],
    code: 'ARCHIVE_DUPLICATE_PATH',
    message: 'archive holds the same path twice',
  },
  {
    name: 'link named like a directory',
    entries: [file('f'), link('l/', 'f')],
    code: 'ARCHIVE_PATH_INVALID',
    message: 'a link entry name ends with `/`',
  },
];

describe.each(formats)('links in a %s archive', (_format, build) => {
  let sandbox: IntakeSandbox;
  afterEach(async () => {
    await sandbox.dispose();
  });

  it.each(attacks)('rejects $name with $code', async ({ entries, code, message }) => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(build(entries));
    const result = await ingestArchive({ archive, into: sandbox.into });
    expect(
      result.ok ? 'accepted' : { code: result.error.code, message: result.error.message },
    ).toEqual({ code, message });
    await sandbox.assertPristine();
    expect(existsSync(`/tmp/${escapeName}`)).toBe(false);
  });

  it('accepts a chain a → b → file, created as links with their targets exactly as given', async () => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(
      build([link('a', 'b'), link('b', './f.txt'), file('f.txt', 'hello\n')]),
    );
    const result = await ingestArchive({ archive, into: sandbox.into });
    expect(result).toMatchObject({ ok: true, files: 1 });
    expect(await readlink(join(sandbox.into, 'a'))).toBe('b');
    expect(await readlink(join(sandbox.into, 'b'))).toBe('./f.txt');
    expect(await readFile(join(sandbox.into, 'a'), 'utf8')).toBe('hello\n');
  });

  it('accepts links to shared configs and docs, stripping the top folder around them', async () => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(
      build([
        link('proj/docs/README.md', '../README.md'), // before its target: order does not matter
        file('proj/README.md', '# proj\n'),
        file('proj/shared/eslint.json', '{}\n'),
        link('proj/packages/web/config', '../../shared'),
        link('proj/packages/web/lint.json', 'config/eslint.json'),
      ]),
    );
    const result = await ingestArchive({ archive, into: sandbox.into });
    expect(result).toMatchObject({ ok: true, files: 2 });
    expect(Object.fromEntries(await snapshotTreeContents(sandbox.into))).toEqual({
      'README.md': `644:${Buffer.from('# proj\n').toString('base64')}`,
      'docs/': '755',
      'docs/README.md': 'link:../README.md',
      'packages/': '755',
      'packages/web/': '755',
      'packages/web/config': 'link:../../shared',
      'packages/web/lint.json': 'link:config/eslint.json',
      'shared/': '755',
      'shared/eslint.json': `644:${Buffer.from('{}\n').toString('base64')}`,
    });
    expect(await readFile(join(sandbox.into, 'packages/web/lint.json'), 'utf8')).toBe('{}\n');
    expect((await lstat(join(sandbox.into, 'packages/web/config'))).isSymbolicLink()).toBe(true);
  });
});

describe('zip link entries whose data is not a plain path', () => {
  let sandbox: IntakeSandbox;
  afterEach(async () => {
    await sandbox.dispose();
  });

  it.each<[string, ZipEntrySpec, string]>([
    [
      'a target over 4096 bytes (checked before it is read)',
      { name: 'l', data: 'a/'.repeat(2100), unixMode: 0o120777 },
      "link 'l' has a target longer than 4096 bytes",
    ],
    [
      'a target that is not UTF-8',
      { name: 'l', data: Buffer.from([0x66, 0xff]), unixMode: 0o120777 },
      "link 'l' has a target that is not valid UTF-8",
    ],
    [
      'a target with a NUL (truncated by C code)',
      { name: 'l', data: 'f\u0000/../../etc', unixMode: 0o120777 },
      "link 'l' has a control character in its target",
    ],
  ])('rejects %s with ARCHIVE_LINK', async (_name, spec, message) => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(buildZip([{ name: 'f', data: 'x' }, spec]));
    const result = await ingestArchive({ archive, into: sandbox.into });
    expect(result.ok ? 'accepted' : [result.error.code, result.error.message]).toEqual([
      'ARCHIVE_LINK',
      message,
    ]);
    await sandbox.assertPristine();
  });
});

describe('tar link entries', () => {
  let sandbox: IntakeSandbox;
  afterEach(async () => {
    await sandbox.dispose();
  });

  it.each<[string, TarEntrySpec[], string]>([
    [
      'a hardlink to a file of the archive',
      [
        { name: 'a.txt', data: 'a' },
        { name: 'b.txt', type: '1', linkname: 'a.txt' },
      ],
      'hardlinks are not accepted',
    ],
    [
      'a PAX linkpath overriding a harmless one',
      [
        { name: 'x', data: 'x' },
        { name: 'l', type: '2', linkname: 'x', pax: { linkpath: '/etc/shadow' } },
      ],
      "link 'l' has an absolute target (/etc/shadow)",
    ],
  ])('rejects %s with ARCHIVE_LINK', async (_name, entries, message) => {
    sandbox = await makeIntakeSandbox();
    const archive = await sandbox.writeArchive(buildTar(entries));
    const result = await ingestArchive({ archive, into: sandbox.into });
    expect(result.ok ? 'accepted' : [result.error.code, result.error.message]).toEqual([
      'ARCHIVE_LINK',
      message,
    ]);
    await sandbox.assertPristine();
  });

  it('accepts a link whose long target comes in a PAX linkpath', async () => {
    sandbox = await makeIntakeSandbox();
    const deep = `${'d/'.repeat(60)}f`;
    const archive = await sandbox.writeArchive(
      buildTar([
        { name: 'deep', data: 'deep\n', pax: { path: deep } },
        { name: 'l', type: '2', linkname: 'x', pax: { linkpath: deep } },
      ]),
    );
    expect(await ingestArchive({ archive, into: sandbox.into })).toMatchObject({ ok: true });
    expect(await readlink(join(sandbox.into, 'l'))).toBe(deep);
  });
});
