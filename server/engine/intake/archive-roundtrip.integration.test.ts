import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestArchive } from './ingest-archive';
import { snapshotTreeContents } from '../../test-support/tree-snapshot';

// Archives made by the real tools people upload from: GNU tar and Info-ZIP zip.
describe('archives of a real project made by system tools', () => {
  let root: string;
  let project: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sb-roundtrip-'));
    project = join(root, 'project');
    const files: [string, string | Buffer, number][] = [
      ['Cargo.toml', '[package]\nname = "demo"\nversion = "0.1.0"\n', 0o644],
      ['src/main.rs', 'fn main() {\n    println!("hi");\n}\n', 0o644],
      ['src/util/mod.rs', 'pub fn add(a: i32, b: i32) -> i32 { a + b }\n', 0o644],
      ['scripts/build.sh', '#!/bin/sh\ncargo build\n', 0o755],
      ['assets/blob.bin', randomBytes(150_000), 0o644],
      ['docs/caf\u00e9 notes.md', '# Notes\n', 0o644],
      ['empty.txt', '', 0o644],
    ];
    for (const [path, content, mode] of files) {
      await mkdir(join(project, path, '..'), { recursive: true });
      await writeFile(join(project, path), content);
      await chmod(join(project, path), mode);
    }
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('tar.gz (GNU tar) extracts byte-identically with the top folder stripped', async () => {
    const archive = join(root, 'project.tar.gz');
    await execa('tar', ['-czf', archive, '-C', root, 'project']);
    const into = join(root, 'from-tgz');
    const result = await ingestArchive({ archive, into });
    expect(result).toMatchObject({ ok: true, format: 'tar.gz', files: 7 });
    expect(await snapshotTreeContents(into)).toEqual(await snapshotTreeContents(project));
  });

  it('zip (Info-ZIP) extracts byte-identically with the top folder stripped', async () => {
    const archive = join(root, 'project.zip');
    await execa('zip', ['-q', '-r', '-X', archive, 'project'], { cwd: root });
    const into = join(root, 'from-zip');
    const result = await ingestArchive({ archive, into });
    expect(result).toMatchObject({ ok: true, format: 'zip', files: 7 });
    expect(await snapshotTreeContents(into)).toEqual(await snapshotTreeContents(project));
  });

  it('rejects a zip made by Info-ZIP with --symlinks holding an absolute link (ARCHIVE_LINK)', async () => {
    const linked = join(root, 'linked');
    await mkdir(linked);
    await writeFile(join(linked, 'a.txt'), 'a');
    await symlink('/etc/passwd', join(linked, 'pw'));
    const archive = join(root, 'linked.zip');
    await execa('zip', ['-q', '-r', '--symlinks', archive, 'linked'], { cwd: root });
    const result = await ingestArchive({ archive, into: join(root, 'from-linked') });
    expect(result.ok ? 'accepted' : [result.error.code, result.error.message]).toEqual([
      'ARCHIVE_LINK',
      "link 'linked/pw' has an absolute target (/etc/passwd)",
    ]);
  });

  describe('a project with relative in-tree links (a shared config, a doc, a link chain)', () => {
    let monorepo: string;
    beforeAll(async () => {
      monorepo = join(root, 'monorepo');
      await mkdir(join(monorepo, 'shared'), { recursive: true });
      await mkdir(join(monorepo, 'packages', 'web'), { recursive: true });
      await mkdir(join(monorepo, 'docs'));
      await writeFile(join(monorepo, 'README.md'), '# monorepo\n');
      await writeFile(join(monorepo, 'shared', 'tsconfig.json'), '{}\n');
      await symlink('../../shared', join(monorepo, 'packages', 'web', 'shared'));
      await symlink('shared/tsconfig.json', join(monorepo, 'packages', 'web', 'tsconfig.json'));
      await symlink('../README.md', join(monorepo, 'docs', 'index.md'));
    });

    it.each([
      ['tar.gz (GNU tar)', 'monorepo.tar.gz', ['tar', '-czf', 'monorepo.tar.gz', 'monorepo']],
      [
        'zip (Info-ZIP --symlinks)',
        'monorepo.zip',
        ['zip', '-q', '-r', '--symlinks', 'monorepo.zip', 'monorepo'],
      ],
    ])(
      '%s keeps the links as links, byte-identically',
      async (_kind, name, [tool = '', ...args]) => {
        await execa(tool, args, { cwd: root });
        const into = join(root, `from-${name}`);
        const result = await ingestArchive({ archive: join(root, name), into });
        expect(result).toMatchObject({ ok: true, files: 2 });
        const snapshot = await snapshotTreeContents(into);
        expect(snapshot).toEqual(await snapshotTreeContents(monorepo));
        expect(snapshot.get('packages/web/tsconfig.json')).toBe('link:shared/tsconfig.json');
        expect(await readFile(join(into, 'packages', 'web', 'tsconfig.json'), 'utf8')).toBe('{}\n');
      },
    );
  });
});
