import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxRootPaths, toolchainRootOf } from './root-paths';
import { bwrapArgs, withoutNested, type SandboxRoot } from './sandbox-root';

const root: SandboxRoot = {
  readOnly: ['/usr', '/root/.rustup'],
  symlinks: [['/bin', 'usr/bin']],
  writable: ['/tmp/x/ws', '/root/.cargo'],
  tmpfs: ['/data/shadows/run-1/home'],
  tmpfsBytes: 4096,
  files: [['/data/shadows/run-1/etc/passwd', '/etc/passwd']],
  cwd: '/tmp/x/ws',
  setpriv: '/usr/bin/setpriv',
};

const pairs = (args: readonly string[], flag: string): string[] =>
  args.flatMap((a, i) => (a === flag ? [args[i + 1]!] : []));

describe('bwrapArgs', () => {
  it('locks the mounts in a nested user namespace and drops every capability', () => {
    const args = bwrapArgs(root, ['true']);
    for (const flag of [
      '--unshare-user',
      '--disable-userns',
      '--unshare-pid',
      '--die-with-parent',
      '--new-session',
    ]) {
      expect(args).toContain(flag);
    }
    expect(pairs(args, '--cap-drop')).toEqual(['ALL']);
    expect(args).toContain('--unshare-net'); // bwrap brings the run's own loopback up
    expect(pairs(args, '--remount-ro')).toEqual(['/']);
  });

  it('mounts parents before children, so /tmp does not hide a workspace below it', () => {
    const args = bwrapArgs(root, ['true']);
    const tmp = args.indexOf('/tmp');
    const workspace = args.indexOf('/tmp/x/ws');
    expect(tmp).toBeGreaterThan(0);
    expect(workspace).toBeGreaterThan(tmp);
    expect(pairs(args, '--bind')).toEqual(['/root/.cargo', '/tmp/x/ws']);
    expect(pairs(args, '--ro-bind')).toEqual([
      '/usr',
      '/root/.rustup',
      '/data/shadows/run-1/etc/passwd',
    ]);
    expect(pairs(args, '--size')).toEqual(['4096', '4096']);
    expect(pairs(args, '--chdir')).toEqual(['/tmp/x/ws']);
  });

  it('binds a unix socket (the egress proxy) at its sandbox path, the only host socket in view', () => {
    const args = bwrapArgs(
      {
        ...root,
        files: [
          ...root.files,
          ['/srv/egress-forwarder.mjs', '/run/shadowbox/egress-forwarder.mjs'],
        ],
        sockets: [['/data/shadows/run-2/egress.sock', '/run/shadowbox/egress.sock']],
      },
      ['true'],
    );
    const at = args.indexOf('/run/shadowbox/egress.sock');
    expect(args.slice(at - 2, at + 1)).toEqual([
      '--bind',
      '/data/shadows/run-2/egress.sock',
      '/run/shadowbox/egress.sock',
    ]);
    const forwarder = args.indexOf('/run/shadowbox/egress-forwarder.mjs');
    expect(args[forwarder - 2]).toBe('--ro-bind');
    // Mounted before the root is made read-only, after the shallower mounts.
    expect(at).toBeLessThan(args.indexOf('--remount-ro'));
    expect(at).toBeGreaterThan(args.indexOf('/tmp/x/ws'));
    // Without sockets, none is bound.
    expect(bwrapArgs(root, ['true'])).not.toContain('/run/shadowbox/egress.sock');
  });
});

describe('withoutNested', () => {
  it('keeps only the outermost of nested paths', () => {
    expect(
      withoutNested(['/usr/local', '/usr', '/root/.cargo', '/root/.cargo/bin', '/usrx']),
    ).toEqual(['/root/.cargo', '/usr', '/usrx']);
  });
});

describe('sandboxRootPaths', () => {
  async function fakeRoot(): Promise<string> {
    const fs = await mkdtemp(path.join(os.tmpdir(), 'sbx-root-'));
    for (const dir of [
      'usr/bin',
      'etc/ssl/certs',
      'etc/ssl/private',
      'etc/python3.11',
      'etc/ssh',
      'home/alice/.pyenv/shims',
      'data/worktrees',
      'opt/jdk',
    ]) {
      await mkdir(path.join(fs, dir), { recursive: true });
    }
    for (const file of ['etc/shadow', 'etc/passwd', 'etc/ld.so.cache', 'etc/machine-id']) {
      await writeFile(path.join(fs, file), 'x');
    }
    await symlink('usr/bin', path.join(fs, 'bin'));
    return fs;
  }

  it('shows system and toolchain directories, never /etc/shadow, the data directory or a home', async () => {
    const fs = await fakeRoot();
    const paths = sandboxRootPaths({
      fsRoot: fs,
      env: {
        PYENV_ROOT: '/home/alice/.pyenv',
        CARGO_HOME: '/data/worktrees', // a toolchain variable pointing into the data dir is ignored
        PATH: '/data/worktrees/bin:/home/alice/.pyenv/shims:/home/alice/bin:/usr/bin:/bin:/opt/jdk',
      },
      hidden: ['/data'],
      extra: ['/opt/jdk'],
    });
    expect(paths.readOnly).toContain('/usr');
    expect(paths.readOnly).toContain('/etc/ssl/certs');
    expect(paths.readOnly).not.toContain('/etc/ssl');
    expect(paths.readOnly).not.toContain('/etc/ssl/private');
    expect(paths.readOnly).toContain('/etc/python3.11');
    expect(paths.readOnly).toContain('/etc/ld.so.cache');
    expect(paths.readOnly).toContain('/home/alice/.pyenv');
    expect(paths.readOnly).toContain('/opt/jdk');
    for (const secret of [
      '/etc/shadow',
      '/etc/passwd',
      '/etc/ssh',
      '/etc/machine-id',
      '/data/worktrees',
      '/home/alice',
      '/etc',
    ]) {
      expect(paths.readOnly).not.toContain(secret);
    }
    expect(paths.symlinks).toEqual([['/bin', 'usr/bin']]);
    // PATH keeps only what the sandbox shows, in order.
    expect(paths.path).toBe('/home/alice/.pyenv/shims:/usr/bin:/bin:/opt/jdk');
  });
});

describe('toolchainRootOf', () => {
  it('binds the tree a PATH entry comes from, never a home or a node_modules/.bin', () => {
    expect(toolchainRootOf('/root/.pyenv/plugins/pyenv-virtualenv/shims')).toBe('/root/.pyenv');
    expect(toolchainRootOf('/home/alice/.cargo/bin')).toBe('/home/alice/.cargo');
    expect(toolchainRootOf('/home/alice/bin')).toBe('/home/alice/bin');
    expect(toolchainRootOf('/home/alice')).toBeNull();
    expect(toolchainRootOf('/opt/jdk/bin')).toBe('/opt/jdk');
    expect(toolchainRootOf('/usr/local/bin')).toBeNull();
    expect(toolchainRootOf('/srv/shadowbox/node_modules/.bin')).toBeNull();
  });
});
