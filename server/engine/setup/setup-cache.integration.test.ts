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
import { snapshotTreeWithTimes } from '../../test-support/tree-snapshot';
import { SetupCache, relocateOutput, setupCacheKey, toolchainVersions } from './setup-cache';
import { setupCacheScope } from './task-setup';

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

const keyFor = (tree: string, scope = 'team-1') =>
  setupCacheKey({
    scope,
    tree,
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
    await execa('python3', ['-m', 'venv', '--copies', '.venv'], { cwd: first });
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
    expect(restored).toMatchObject({ ok: true, restoredPaths: ['node_modules', '.venv'] });
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

  it('misses when the tree or the scope changed', async () => {
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
        version: 2,
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
    const goodOutputs = (JSON.parse(good) as { outputs: unknown[] }).outputs;
    const corrupt = [
      '{"version":1,',
      JSON.stringify({ ...JSON.parse(good), version: 1 }),
      JSON.stringify({ ...JSON.parse(good), key: keyFor('{"x":1}') }),
      JSON.stringify({ ...JSON.parse(good), workspace: 'relative/ws' }),
      JSON.stringify({
        ...JSON.parse(good),
        outputs: [...goodOutputs, { path: 'missing', digest: '0'.repeat(64) }],
      }),
      JSON.stringify({
        ...JSON.parse(good),
        outputs: [{ path: '../../etc', digest: '0'.repeat(64) }],
      }),
      JSON.stringify({ ...JSON.parse(good), outputs: ['node_modules'] }),
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
    expect(await cache.restore(goEntry, workspace)).toMatchObject({
      ok: false,
      reason: `cannot restore into ${workspace}: .shadowbox is not a directory`,
    });
    expect(await readFile(join(outside, 'go/secret'), 'utf8')).toBe('host file\n');
    await expect(cache.store(key, workspace, ['../escape'])).rejects.toThrow(/output path/);
    await expect(cache.store(key, workspace, ['.shadowbox'])).rejects.toThrow(/output path/);
    await expect(cache.lookup('../../etc')).rejects.toThrow(/key/);
  });

  /** A venv (a real one, as setup makes it) in `workspace`, and its lib/python3.x name. */
  async function makeVenv(workspace: string): Promise<void> {
    await mkdir(workspace, { recursive: true });
    await execa('python3', ['-m', 'venv', '--copies', '--without-pip', '.venv'], {
      cwd: workspace,
    });
  }

  /** Another task's Git admin directory: it names that task's worktree, as Git's own does. */
  async function otherTaskGitDir(worktree: string): Promise<string> {
    const admin = dir('sources/other.git/worktrees/other-task');
    await put(admin, { gitdir: `${worktree}/.git\n`, HEAD: 'ref: refs/heads/main\n' });
    return admin;
  }

  it('regression: a restore refuses an entry whose .venv/bin links out, and changes nothing outside', async () => {
    const first = dir('worktrees/task-one');
    const second = dir('worktrees/task-two');
    await makeVenv(first);
    await mkdir(second);
    const admin = await otherTaskGitDir(first);
    const before = await snapshotTreeWithTimes(dir('sources'));
    const targets = [admin, '../../../sources/other.git/worktrees/other-task'];
    for (const [i, target] of targets.entries()) {
      const key = keyFor(`{"venv":${i}}`);
      await cache.store(key, first, ['.venv']);
      const entry = await cache.lookup(key);
      if (entry === null) throw new Error('no entry');
      // The entry is tampered with after it was stored: bin becomes a link out of the worktree.
      await rm(join(entry.path, 'outputs/.venv/bin'), { recursive: true });
      await symlink(target, join(entry.path, 'outputs/.venv/bin'));
      expect(await cache.restore(entry, second)).toMatchObject({
        ok: false,
        reason: `cache entry ${key.slice(0, 12)} refused: .venv/bin links to ${JSON.stringify(target)}, outside the worktree`,
      });
      expect(await cache.lookup(key)).toBeNull();
    }
    expect(await snapshotTreeWithTimes(dir('sources'))).toEqual(before);
    expect(existsSync(join(second, '.venv'))).toBe(false);
    expect(await readdir(join(second, '.shadowbox'))).toEqual([]);
  });

  it('regression: a restore replaces links planted in the worktree without following them', async () => {
    const first = dir('worktrees/task-one');
    await makeVenv(first);
    const admin = await otherTaskGitDir(dir('worktrees/task-two'));
    const key = keyFor('{"venv":1}');
    await cache.store(key, first, ['.venv']);
    const entry = await cache.lookup(key);
    if (entry === null) throw new Error('no entry');
    const before = await snapshotTreeWithTimes(dir('sources'));
    // `.venv` itself a link out, and a real `.venv` whose `bin` links out.
    const linked = dir('worktrees/task-two');
    await mkdir(linked);
    await symlink(admin, join(linked, '.venv'));
    const nested = dir('worktrees/task-three');
    await mkdir(join(nested, '.venv'), { recursive: true });
    await symlink(admin, join(nested, '.venv/bin'));
    for (const workspace of [linked, nested]) {
      expect(await cache.restore(entry, workspace)).toMatchObject({ ok: true });
      expect((await lstat(join(workspace, '.venv'))).isDirectory()).toBe(true);
      expect((await lstat(join(workspace, '.venv/bin'))).isDirectory()).toBe(true);
      expect(await readFile(join(workspace, '.venv/pyvenv.cfg'), 'utf8')).toContain(workspace);
    }
    expect(await snapshotTreeWithTimes(dir('sources'))).toEqual(before);
  });

  it('regression: relocation never follows a link out of the restored copy', async () => {
    const copy = dir('staged/.venv');
    const admin = await otherTaskGitDir('/srv/worktrees/old');
    await put(copy, { 'pyvenv.cfg': 'home = /usr/bin\ncommand = /srv/worktrees/old/.venv\n' });
    await symlink(admin, join(copy, 'bin'));
    await mkdir(join(copy, 'lib'));
    await symlink(admin, join(copy, 'lib/python3.99'));
    const before = await snapshotTreeWithTimes(dir('sources'));
    expect(await relocateOutput(copy, '/srv/worktrees/old', '/srv/worktrees/new')).toBe(1);
    expect(await snapshotTreeWithTimes(dir('sources'))).toEqual(before);
    expect(await readFile(join(admin, 'gitdir'), 'utf8')).toBe('/srv/worktrees/old/.git\n');
  });

  it('regression: a store refuses outputs with a link out of the worktree, a setuid file or a FIFO', async () => {
    const workspace = dir('ws');
    await makeVenv(workspace);
    await symlink('/usr/bin/python3', join(workspace, '.venv/bin/python-link'));
    await expect(cache.store(keyFor('{}'), workspace, ['.venv'])).rejects.toThrow(
      'cannot store .venv/bin/python-link links to "/usr/bin/python3", outside the worktree',
    );
    expect(await readdir(dir('cache'))).toEqual([]);
    await rm(join(workspace, '.venv/bin/python-link'));
    await put(workspace, { 'node_modules/x': 'x' });
    await chmod(join(workspace, 'node_modules/x'), 0o4755);
    await expect(cache.store(keyFor('{}'), workspace, ['node_modules'])).rejects.toThrow(
      'cannot store node_modules/x is setuid or setgid',
    );
    await execa('mkfifo', [join(workspace, '.venv/fifo')]);
    await expect(cache.store(keyFor('{}'), workspace, ['.venv'])).rejects.toThrow(
      'cannot store .venv/fifo is not a directory, file or link',
    );
    expect(await readdir(dir('cache'))).toEqual([]);
  });

  it('a tampered entry is not restored: its digest does not match, and it is evicted', async () => {
    const first = dir('ws');
    await put(first, { 'node_modules/pkg/index.js': 'module.exports = 1;\n' });
    const second = dir('ws-2');
    await put(second, { 'node_modules/mine.js': 'kept\n' });
    const tampers: ((outputs: string) => Promise<void>)[] = [
      (o) => writeFile(join(o, 'node_modules/pkg/index.js'), 'module.exports = 2;\n'),
      (o) => put(o, { 'node_modules/.bin/node': '#!/bin/sh\necho planted\n' }),
      (o) => chmod(join(o, 'node_modules/pkg/index.js'), 0o755),
      (o) => symlink('../pkg/index.js', join(o, 'node_modules/pkg/extra')),
    ];
    for (const [i, tamper] of tampers.entries()) {
      const key = keyFor(`{"t":${i}}`);
      await cache.store(key, first, ['node_modules']);
      const entry = await cache.lookup(key);
      if (entry === null) throw new Error('no entry');
      await tamper(join(entry.path, 'outputs'));
      expect(await cache.restore(entry, second)).toMatchObject({
        ok: false,
        reason: `cache entry ${key.slice(0, 12)} refused: node_modules does not match the digest it was stored with`,
      });
      expect(await cache.lookup(key)).toBeNull();
      expect(await readdir(join(second, 'node_modules'))).toEqual(['mine.js']);
    }
  });

  it("regression: person A's planted node_modules/.bin/node is no hit for person B", async () => {
    const owners = {
      a: { ownerId: 'person-a', teamId: null },
      aTeam: { ownerId: 'person-a', teamId: 'team-a' },
      b: { ownerId: 'person-b', teamId: null },
      bTeam: { ownerId: 'person-b', teamId: 'team-b' },
      legacy: { ownerId: null, teamId: null },
    };
    const scope = (owner: { ownerId: string | null; teamId: string | null }) =>
      setupCacheScope({ ...owner, source: { kind: 'archive', name: 'p.tar.gz' } });
    const tree = '5b4b2f0e3c0f1d9a8e7c6b5a4f3e2d1c0b9a8f7e';
    const workspace = dir('ws-a');
    await put(workspace, { 'node_modules/.bin/node': '#!/bin/sh\necho planted\n' });
    const scopeA = scope(owners.a);
    if (scopeA === null) throw new Error('no scope');
    await cache.store(keyFor(tree, scopeA), workspace, ['node_modules']);
    expect(await cache.lookup(keyFor(tree, scopeA))).not.toBeNull();
    for (const other of [owners.aTeam, owners.b, owners.bTeam]) {
      const otherScope = scope(other);
      expect(otherScope).not.toBeNull();
      expect(otherScope).not.toBe(scopeA);
      expect(await cache.lookup(keyFor(tree, otherScope ?? ''))).toBeNull();
    }
    expect(scope(owners.legacy)).toBeNull();
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
