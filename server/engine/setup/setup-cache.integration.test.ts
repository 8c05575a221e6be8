import { existsSync } from 'node:fs';
import {
  chmod,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type * as execaModule from 'execa';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SetupCache, setupCacheKey, toolchainVersions } from './setup-cache';

// Lets one test make the n-th `cp` of a store fail after it has copied (a store that dies midway).
const copies = vi.hoisted(() => ({ failOn: 0, count: 0 }));
vi.mock('execa', async (importOriginal) => {
  const actual = await importOriginal<typeof execaModule>();
  const wrapped = ((file: string, args: readonly string[], options: object) => {
    if (file === 'cp' && copies.failOn > 0 && ++copies.count === copies.failOn) {
      return actual.execa(file, args, options).then(() => actual.execa('false', [], options));
    }
    return actual.execa(file, args, options);
  }) as unknown as typeof actual.execa;
  return { ...actual, execa: wrapped };
});

async function put(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

const keyFor = (lockfile: string, scope = 'team-1') =>
  setupCacheKey({
    scope,
    manifests: [
      { path: 'package.json', content: '{}' },
      { path: 'package-lock.json', content: lockfile },
    ],
    commands: [['npm', 'ci', '--no-audit', '--no-fund']],
    toolchains: { node: 'v20', npm: '11' },
  });

describe('SetupCache', () => {
  let root: string;
  let cache: SetupCache;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sb-setup-cache-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
  let n = 0;
  let dir: (name: string) => string;
  beforeEach(async () => {
    n += 1;
    const base = join(root, `case-${n}`);
    await mkdir(base);
    dir = (name) => join(base, name);
    cache = new SetupCache(dir('cache'));
    copies.failOn = 0;
    copies.count = 0;
  });
  afterEach(() => {
    copies.failOn = 0;
  });

  it('stores node_modules and a real venv, and restores them relocated into another workspace', async () => {
    const first = dir('worktrees/task-one');
    const second = dir('elsewhere/deeper/task-two');
    const sources = { 'src/demo/__init__.py': 'NAME = "demo"\n' };
    await put(first, { ...sources, 'node_modules/pkg/index.js': 'module.exports = 1;\n' });
    await put(second, sources);
    await chmod(join(first, 'node_modules/pkg/index.js'), 0o755);
    await mkdir(join(first, 'node_modules/.bin'));
    await symlink('../pkg/index.js', join(first, 'node_modules/.bin/pkg'));
    await execa('python3', ['-m', 'venv', '.venv'], { cwd: first });
    const lib = (await readdir(join(first, '.venv/lib'))).find((d) => d.startsWith('python'));
    if (lib === undefined) throw new Error('no lib/python* in the venv');
    // What `pip install -e .` leaves: a path back into the workspace.
    await writeFile(
      join(first, '.venv/lib', lib, 'site-packages/__editable__.demo-0.1.pth'),
      `${first}/src\n`,
    );

    const key = keyFor('{"v":1}');
    expect(await cache.lookup(key)).toBeNull();
    await cache.store(key, first, ['node_modules', '.venv', 'target']);
    const entry = await cache.lookup(key);
    expect(entry).toMatchObject({ key, workspace: first, outputs: ['node_modules', '.venv'] });
    expect(entry?.bytes).toBeGreaterThan(1000);
    const meta = JSON.parse(await readFile(join(dir('cache'), key, 'meta.json'), 'utf8')) as {
      createdAt: string;
    };
    expect(Number.isNaN(Date.parse(meta.createdAt))).toBe(false);
    if (entry === null) return;

    // Nothing may still need the first workspace.
    await rm(first, { recursive: true, force: true });
    const restored = await cache.restore(entry, second);
    expect(restored.restoredPaths).toEqual(['node_modules', '.venv']);
    expect(restored.durationMs).toBeGreaterThanOrEqual(0);

    const python = join(second, '.venv/bin/python');
    const run = async (file: string, args: string[]) =>
      (await execa(file, args, { cwd: second })).stdout.trim();
    expect(await run(python, ['-c', 'import sys; print(sys.prefix)'])).toBe(join(second, '.venv'));
    expect(await run(join(second, '.venv/bin/pip'), ['--version'])).toContain(
      join(second, '.venv/lib'),
    );
    expect(await run(python, ['-c', 'import demo; print(demo.__file__)'])).toBe(
      join(second, 'src/demo/__init__.py'),
    );
    for (const name of await readdir(join(second, '.venv/bin'))) {
      const path = join(second, '.venv/bin', name);
      if ((await lstat(path)).isFile()) expect(await readFile(path, 'utf8')).not.toContain(first);
    }
    expect(await readFile(join(second, '.venv/pyvenv.cfg'), 'utf8')).toContain(second);
    expect((await stat(join(second, '.venv/bin/pip'))).mode & 0o777).toBe(0o755);
    expect((await stat(join(second, 'node_modules/pkg/index.js'))).mode & 0o777).toBe(0o755);
    expect(await readlink(join(second, 'node_modules/.bin/pkg'))).toBe('../pkg/index.js');
    // Nothing of the restore is left beside the outputs.
    expect(await readdir(join(second, '.shadowbox'))).toEqual([]);
  });

  it('hands out copies: what a run does to restored outputs never reaches the entry', async () => {
    const workspace = dir('ws');
    await put(workspace, { 'node_modules/pkg/index.js': 'original\n' });
    const key = keyFor('{}');
    await cache.store(key, workspace, ['node_modules']);
    const entry = await cache.lookup(key);
    if (entry === null) throw new Error('no entry');
    const target = dir('ws-2');
    await mkdir(target);
    await cache.restore(entry, target);
    const restoredFile = join(target, 'node_modules/pkg/index.js');
    const cachedFile = join(entry.path, 'outputs/node_modules/pkg/index.js');
    expect((await stat(restoredFile)).ino).not.toBe((await stat(cachedFile)).ino);
    await writeFile(restoredFile, 'tampered\n');
    await rm(join(target, 'node_modules/pkg'), { recursive: true });
    expect(await readFile(cachedFile, 'utf8')).toBe('original\n');
    // A restore replaces whatever the workspace held there.
    await put(target, { 'node_modules/stale.js': 'x' });
    await cache.restore(entry, target);
    expect(await readdir(join(target, 'node_modules'))).toEqual(['pkg']);
    expect(await readFile(restoredFile, 'utf8')).toBe('original\n');
  });

  it('misses when a manifest, the scope or a toolchain changed', async () => {
    const workspace = dir('ws');
    await put(workspace, { 'node_modules/a.js': 'a' });
    await cache.store(keyFor('{"lock":1}'), workspace, ['node_modules']);
    expect(await cache.lookup(keyFor('{"lock":1}'))).not.toBeNull();
    expect(await cache.lookup(keyFor('{"lock":2}'))).toBeNull();
    expect(await cache.lookup(keyFor('{"lock":1}', 'team-2'))).toBeNull();
  });

  it('a store that fails midway leaves no entry and no temporary directory', async () => {
    const workspace = dir('ws');
    await put(workspace, { 'node_modules/a.js': 'a', '.venv/pyvenv.cfg': 'home = /usr\n' });
    const key = keyFor('{}');
    copies.failOn = 2; // node_modules is copied, .venv's copy fails after copying
    await expect(cache.store(key, workspace, ['node_modules', '.venv'])).rejects.toThrow(
      /copying .*\.venv failed/,
    );
    expect(copies.count).toBe(2);
    expect(await cache.lookup(key)).toBeNull();
    expect(await readdir(dir('cache'))).toEqual([]);
    copies.failOn = 0;
    await cache.store(key, workspace, ['node_modules', '.venv']);
    expect((await cache.lookup(key))?.outputs).toEqual(['node_modules', '.venv']);
  });

  it('what a crashed store left is never an entry, and a later store sweeps it', async () => {
    const workspace = dir('ws');
    await put(workspace, { 'node_modules/a.js': 'a' });
    const key = keyFor('{}');
    const exited = execa('true');
    await exited;
    const leftover = join(dir('cache'), `.tmp-${exited.pid ?? 999999}-crashed`);
    await put(leftover, {
      'meta.json': JSON.stringify({
        version: 1,
        key,
        workspace,
        outputs: [],
        bytes: 0,
        createdAt: new Date().toISOString(),
      }),
    });
    expect(await cache.lookup(key)).toBeNull();
    await cache.store(keyFor('{"other":1}'), workspace, ['node_modules']);
    expect(existsSync(leftover)).toBe(false);
  });

  it('a missing or corrupt meta.json is a miss, and the next store replaces the entry', async () => {
    const workspace = dir('ws');
    await put(workspace, { 'node_modules/a.js': 'a' });
    const key = keyFor('{}');
    const metaFile = join(dir('cache'), key, 'meta.json');
    await cache.store(key, workspace, ['node_modules']);
    const good = await readFile(metaFile, 'utf8');
    const corrupt = [
      '{"version":1,',
      JSON.stringify({ ...JSON.parse(good), version: 2 }),
      JSON.stringify({ ...JSON.parse(good), key: keyFor('{"x":1}') }),
      JSON.stringify({ ...JSON.parse(good), workspace: 'relative/ws' }),
      JSON.stringify({ ...JSON.parse(good), outputs: ['node_modules', 'missing'] }),
      JSON.stringify({ ...JSON.parse(good), outputs: ['../../etc'] }),
    ];
    for (const text of corrupt) {
      await writeFile(metaFile, text);
      expect(await cache.lookup(key)).toBeNull();
    }
    await rm(metaFile);
    expect(await cache.lookup(key)).toBeNull();
    await cache.store(key, workspace, ['node_modules']);
    expect((await cache.lookup(key))?.outputs).toEqual(['node_modules']);
  });

  it('regression: never copies, deletes or writes through a symlinked output or parent', async () => {
    const outside = dir('outside');
    await put(outside, { 'go/secret': 'host file\n', 'node_modules/x': 'host\n' });
    const workspace = dir('ws');
    await mkdir(workspace);
    await symlink(join(outside, 'node_modules'), join(workspace, 'node_modules'));
    await symlink(outside, join(workspace, '.shadowbox'));
    const key = keyFor('{}');
    await cache.store(key, workspace, ['node_modules', '.shadowbox/go']);
    const entry = await cache.lookup(key);
    expect(entry?.outputs).toEqual([]);

    const source = dir('source');
    await put(source, { '.shadowbox/go/mod/a': 'module\n' });
    const goKey = keyFor('{"go":1}');
    await cache.store(goKey, source, ['.shadowbox/go']);
    const goEntry = await cache.lookup(goKey);
    if (goEntry === null) throw new Error('no entry');
    await expect(cache.restore(goEntry, workspace)).rejects.toThrow(/is not a directory/);
    expect(await readFile(join(outside, 'go/secret'), 'utf8')).toBe('host file\n');
    await expect(cache.store(key, workspace, ['../escape'])).rejects.toThrow(/output path/);
    await expect(cache.store(key, workspace, ['.shadowbox'])).rejects.toThrow(/output path/);
    await expect(cache.lookup('../../etc')).rejects.toThrow(/key/);
  });

  it('relocates a CMake build directory, which builds again in the new place', async () => {
    const project = {
      'CMakeLists.txt':
        'cmake_minimum_required(VERSION 3.10)\nproject(demo C)\nadd_executable(demo main.c)\n',
      'main.c': '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n',
    };
    const first = dir('worktrees/cmake-one');
    const second = dir('worktrees/cmake-two-longer');
    await put(first, project);
    await put(second, project);
    await execa('cmake', ['-S', '.', '-B', 'build'], { cwd: first });
    await execa('cmake', ['--build', 'build'], { cwd: first });
    const key = keyFor('{"cmake":1}');
    await cache.store(key, first, ['build']);
    const entry = await cache.lookup(key);
    if (entry === null) throw new Error('no entry');
    await rm(first, { recursive: true, force: true });
    await cache.restore(entry, second);
    const cacheText = await readFile(join(second, 'build/CMakeCache.txt'), 'utf8');
    expect(cacheText).toContain(`CMAKE_HOME_DIRECTORY:INTERNAL=${second}`);
    expect(cacheText).not.toContain(first);
    await writeFile(join(second, 'main.c'), project['main.c'].replace('hello', 'moved'));
    await execa('cmake', ['--build', 'build'], { cwd: second });
    expect((await execa(join(second, 'build/demo'))).stdout).toBe('moved');
  });
});

describe('toolchainVersions', () => {
  it('reads each version line; a missing program is absent', async () => {
    const versions = await toolchainVersions(['node', 'python3', 'no-such-toolchain-x'], {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
    });
    expect(versions.node).toBe(process.version);
    expect(versions.python3).toMatch(/^Python 3\./);
    expect(versions['no-such-toolchain-x']).toBe('absent');
  });

  it('asks go with `go version`', async () => {
    const versions = await toolchainVersions(['go'], { PATH: process.env.PATH ?? '' });
    expect(versions.go === 'absent' || versions.go?.startsWith('go version go')).toBe(true);
  });
});
