import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestArchive } from './ingest-archive';
import { snapshotTree } from './test-support/tree-snapshot';

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
    expect(await snapshotTree(into)).toEqual(await snapshotTree(project));
  });

  it('zip (Info-ZIP) extracts byte-identically with the top folder stripped', async () => {
    const archive = join(root, 'project.zip');
    await execa('zip', ['-q', '-r', '-X', archive, 'project'], { cwd: root });
    const into = join(root, 'from-zip');
    const result = await ingestArchive({ archive, into });
    expect(result).toMatchObject({ ok: true, format: 'zip', files: 7 });
    expect(await snapshotTree(into)).toEqual(await snapshotTree(project));
  });

  it('rejects a zip made by Info-ZIP with --symlinks (ARCHIVE_LINK)', async () => {
    const linked = join(root, 'linked');
    await mkdir(linked);
    await writeFile(join(linked, 'a.txt'), 'a');
    await execa('ln', ['-s', '/etc/passwd', join(linked, 'pw')]);
    const archive = join(root, 'linked.zip');
    await execa('zip', ['-q', '-r', '--symlinks', archive, 'linked'], { cwd: root });
    const result = await ingestArchive({ archive, into: join(root, 'from-linked') });
    expect(result.ok ? 'accepted' : result.error.code).toBe('ARCHIVE_LINK');
  });
});
