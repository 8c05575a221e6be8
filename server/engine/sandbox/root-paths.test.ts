import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandboxRootPaths } from './root-paths';

describe("sandboxRootPaths: the run's PATH", () => {
  let fsRoot = '';
  beforeEach(async () => {
    fsRoot = await mkdtemp(path.join(os.tmpdir(), 'sbx-paths-'));
    for (const dir of ['usr/bin', 'usr/lib/node_modules/shadowbox/node_modules/.bin', 'etc']) {
      await mkdir(path.join(fsRoot, dir), { recursive: true });
    }
    await symlink('usr/bin', path.join(fsRoot, 'bin'));
  });
  afterEach(() => rm(fsRoot, { recursive: true, force: true }));

  const workspace = '/data/worktrees/task-1';
  // What `npx shadowbox serve` or `npm start` gives the server: Shadowbox's own bins first, and
  // here they lie in a tree the sandbox shows (a global install under /usr).
  const serverPath = [
    '/usr/lib/node_modules/shadowbox/node_modules/.bin',
    '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin',
    '/srv/shadowbox/node_modules/.bin',
    '/usr/bin',
    '/bin',
  ].join(':');

  it('begins with the workspace’s own node_modules/.bin and .venv/bin, then the host’s shown PATH', () => {
    const paths = sandboxRootPaths({
      fsRoot,
      env: { PATH: serverPath },
      hidden: ['/data'],
      workspace,
    });
    expect(paths.path).toBe(`${workspace}/node_modules/.bin:${workspace}/.venv/bin:/usr/bin:/bin`);
  });

  it('never shows Shadowbox’s own node_modules/.bin: the workspace’s are the only ones', () => {
    const paths = sandboxRootPaths({
      fsRoot,
      env: { PATH: serverPath },
      hidden: ['/data'],
      workspace,
    });
    const nodeModules = paths.path.split(':').filter((dir) => dir.includes('node_modules'));
    expect(nodeModules).toEqual([`${workspace}/node_modules/.bin`]);
    // Without a workspace there is none at all.
    const bare = sandboxRootPaths({ fsRoot, env: { PATH: serverPath }, hidden: ['/data'] });
    expect(bare.path).toBe('/usr/bin:/bin');
  });

  it('does not repeat a workspace directory the host PATH also names', () => {
    const paths = sandboxRootPaths({
      fsRoot,
      env: { PATH: `${workspace}/.venv/bin:/usr/bin` },
      hidden: [],
      workspace,
    });
    expect(paths.path).toBe(`${workspace}/node_modules/.bin:${workspace}/.venv/bin:/usr/bin`);
  });

  it('refuses a relative workspace (a bug in the caller, not a run to start)', () => {
    expect(() =>
      sandboxRootPaths({ fsRoot, env: { PATH: '/usr/bin' }, hidden: [], workspace: 'ws' }),
    ).toThrow("sandboxRootPaths: workspace must be an absolute path, not 'ws'");
  });
});
