import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxRootPaths, toolchainRootOf } from './root-paths';
import {
  bwrapArgs,
  procMaskArgs,
  rootFstab,
  rootSkeleton,
  withoutNested,
  type SandboxRoot,
} from './sandbox-root';

const root: SandboxRoot = {
  readOnly: ['/usr', '/root/.rustup', '/etc/ld.so.cache'],
  symlinks: [['/bin', 'usr/bin']],
  writable: [],
  overlays: [
    { target: '/tmp/x/ws', upper: '/r/upper', work: '/r/work', source: 'shadowbox' },
    { target: '/root/.cargo', upper: '/r/c/upper', work: '/r/c/work', source: 'shadowbox-cache' },
  ],
  tmpfs: ['/data/shadows/run-1/home'],
  tmpfsBytes: 4096,
  tmpfsInodes: 1000,
  files: [['/data/shadows/run-1/etc/passwd', '/etc/passwd']],
  cwd: '/tmp/x/ws',
  setpriv: '/usr/bin/setpriv',
  owner: { uid: 65534, gid: 65534, label: 'nobody (uid 65534)' },
};

const isFile = (p: string): boolean => p === '/etc/ld.so.cache' || p.endsWith('passwd');
const pairs = (args: readonly string[], flag: string): string[] =>
  args.flatMap((a, i) => (a === flag ? [args[i + 1]!] : []));

describe('rootFstab', () => {
  const lines = rootFstab(root, '/r/rootfs', isFile).trimEnd().split('\n');
  const targetOf = (line: string): string => line.split(' ')[1]!;

  it('mounts parents before children, so /tmp does not hide a workspace below it', () => {
    const targets = lines.map(targetOf);
    expect(targets.indexOf('/r/rootfs/tmp')).toBeLessThan(targets.indexOf('/r/rootfs/tmp/x/ws'));
    expect(targets.indexOf('/r/rootfs/root/.cargo')).toBeGreaterThan(-1);
    // The root bound over itself first (pivot_root needs a mount), then what bubblewrap needs.
    expect(lines[0]).toBe('/r/rootfs /r/rootfs none bind 0 0');
    expect(targets[1]).toBe('/r/rootfs/proc');
  });

  it('binds system trees read-only, never setuid or with devices, and mounts overlays at their own path', () => {
    expect(lines).toContain('/usr /r/rootfs/usr none bind,ro,nosuid,nodev,X-mount.mkdir 0 0');
    // A file bind gets no mkdir: its target is made as a file in the skeleton.
    expect(lines).toContain(
      '/etc/ld.so.cache /r/rootfs/etc/ld.so.cache none bind,ro,nosuid,nodev 0 0',
    );
    expect(lines).toContain(
      'shadowbox /r/rootfs/tmp/x/ws overlay lowerdir=/tmp/x/ws,upperdir=/r/upper,workdir=/r/work,userxattr,volatile,nosuid,nodev,X-mount.mkdir 0 0',
    );
  });

  it('gives HOME and /tmp size and inode caps, HOME owned by the run’s identity', () => {
    expect(lines).toContain(
      'shadowbox-tmp /r/rootfs/tmp tmpfs mode=1777,size=4096,nr_inodes=1000,nosuid,nodev,X-mount.mkdir 0 0',
    );
    expect(lines).toContain(
      'shadowbox-tmp /r/rootfs/data/shadows/run-1/home tmpfs mode=0700,uid=65534,gid=65534,size=4096,nr_inodes=1000,nosuid,nodev,X-mount.mkdir 0 0',
    );
  });

  it('refuses paths mount(8) cannot express', () => {
    expect(() => rootFstab({ ...root, writable: ['/data/a,b'] }, '/r/rootfs', isFile)).toThrow(
      "cannot contain ',', ':'",
    );
  });
});

describe('rootSkeleton', () => {
  it('makes file targets as files, links as links, and the mountpoints bubblewrap needs', () => {
    expect(rootSkeleton(root, isFile)).toEqual([
      { kind: 'dir', path: '/proc' },
      { kind: 'dir', path: '/dev' },
      { kind: 'link', path: '/bin', target: 'usr/bin' },
      { kind: 'file', path: '/etc/ld.so.cache' },
      { kind: 'file', path: '/etc/passwd' },
    ]);
  });
});

describe('bwrapArgs', () => {
  it('locks the mounts in a nested user namespace, drops every capability and loads the filter', () => {
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
    expect(pairs(args, '--seccomp')).toEqual(['4']);
    expect(args).toContain('--unshare-net'); // bwrap brings the run's own loopback up
    expect(args.slice(0, 3)).toEqual(['--bind', '/', '/']);
    expect(pairs(args, '--remount-ro')).toContain('/');
    expect(pairs(args, '--chdir')).toEqual(['/tmp/x/ws']);
  });

  it('masks /proc as container runtimes do, after mounting it', () => {
    const args = bwrapArgs(root, ['true']);
    const proc = args.indexOf('--proc');
    const sys = args.indexOf('/proc/sys');
    expect(sys).toBeGreaterThan(proc);
    expect(args.slice(sys - 1, sys + 2)).toEqual(['--ro-bind', '/proc/sys', '/proc/sys']);
  });
});

describe('procMaskArgs', () => {
  it('names only what this kernel has: bubblewrap cannot make a missing /proc entry', () => {
    const present = new Set(['/proc/sys', '/proc/kcore', '/proc/acpi']);
    expect(procMaskArgs((p) => present.has(p))).toEqual([
      '--ro-bind',
      '/proc/sys',
      '/proc/sys',
      '--ro-bind',
      '/dev/null',
      '/proc/kcore',
      '--perms',
      '0555',
      '--tmpfs',
      '/proc/acpi',
      '--remount-ro',
      '/proc/acpi',
    ]);
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
