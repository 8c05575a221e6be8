import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { currentBuild } from './cli-build.mjs';

describe('which code the bin runs', () => {
  let root: string;
  const outdir = () => path.join(root, 'dist', 'cli');
  const source = () => path.join(root, 'server', 'cli', 'main.ts');

  /** A build of `source()` as scripts/build-cli.mjs records it: each input's mtime and size. */
  async function recordBuild(): Promise<void> {
    const { mtimeMs, size } = await stat(source());
    await mkdir(outdir(), { recursive: true });
    await writeFile(path.join(outdir(), 'main.js'), '');
    await writeFile(
      path.join(outdir(), 'manifest.json'),
      JSON.stringify({ entry: 'main.js', inputs: [{ path: 'server/cli/main.ts', mtimeMs, size }] }),
    );
  }

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'sb-cli-build-'));
    await mkdir(path.dirname(source()), { recursive: true });
    await writeFile(source(), 'export const a = 1;\n');
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('runs the build while every source is as it was built', async () => {
    await recordBuild();
    expect(currentBuild(root)).toBe(path.join(outdir(), 'main.js'));
  });

  it('runs the sources when there is no build, or a build without its manifest', async () => {
    expect(currentBuild(root)).toBeNull();
    await mkdir(outdir(), { recursive: true });
    await writeFile(path.join(outdir(), 'main.js'), '');
    expect(currentBuild(root)).toBeNull();
  });

  it('runs the sources once a source is edited, even to the same size', async () => {
    await recordBuild();
    await writeFile(source(), 'export const b = 2;\n');
    expect(currentBuild(root)).toBeNull();
  });

  it('runs the sources when a source is replaced by an older file', async () => {
    await recordBuild();
    const old = new Date('2020-01-01T00:00:00Z');
    await utimes(source(), old, old);
    expect(currentBuild(root)).toBeNull();
  });

  it('runs the sources when a source the build holds is gone', async () => {
    await recordBuild();
    await rm(source());
    expect(currentBuild(root)).toBeNull();
  });
});
