import { describe, expect, it } from 'vitest';
import { writableMounts } from './host-mounts';
import {
  sandboxCommand,
  sandboxFstab,
  sandboxSetupFailure,
  type SandboxLayout,
} from './sandbox-command';

const overlay: SandboxLayout = {
  kind: 'overlay',
  root: '/data/work spaces/t1',
  upper: '/data/shadows/run-1/upper',
  work: '/data/shadows/run-1/work',
  deleteList: '/data/shadows/run-1/delete-list',
  tmpfsUpper: false,
  home: '/data/shadows/run-1/home',
};

const dev = { dir: '/data/shadows/run-1/dev', devices: ['null', 'urandom'] };

describe('sandboxFstab', () => {
  it('mounts the overlay on the workspace path, a private HOME, sysfs and a /dev of its own', () => {
    expect(sandboxFstab(overlay, { dev })).toBe(
      [
        'shadowbox /data/work\\040spaces/t1 overlay lowerdir=/data/work\\040spaces/t1,upperdir=/data/shadows/run-1/upper,workdir=/data/shadows/run-1/work,userxattr,volatile 0 0',
        'shadowbox-home /data/shadows/run-1/home tmpfs mode=0700,nosuid,nodev 0 0',
        'shadowbox-sys /sys sysfs ro,nosuid,nodev,noexec 0 0',
        '/dev/null /data/shadows/run-1/dev/null none bind 0 0',
        '/dev/urandom /data/shadows/run-1/dev/urandom none bind 0 0',
        'shadowbox-pts /data/shadows/run-1/dev/pts devpts newinstance,ptmxmode=0666,mode=0620 0 0',
        'shadowbox-shm /data/shadows/run-1/dev/shm tmpfs mode=1777,nosuid,nodev 0 0',
        '/data/shadows/run-1/dev /dev none rbind 0 0',
        '',
      ].join('\n'),
    );
  });

  it('takes the layers from the tmpfs when the upper layer lives there', () => {
    expect(sandboxFstab({ ...overlay, tmpfsUpper: true }, { dev })).toContain(
      'upperdir=/data/shadows/run-1/work/upper,workdir=/data/shadows/run-1/work/work,userxattr,volatile',
    );
  });

  it('bind-mounts a direct workspace onto itself so it stays writable', () => {
    expect(sandboxFstab({ kind: 'direct', root: '/ws', home: '/h' }, { dev })).toMatch(
      /^\/ws \/ws none bind 0 0\n/,
    );
  });

  it('gives each toolchain cache its own overlay', () => {
    const caches = [{ dir: '/root/.cargo', upper: '/r/cache-0/upper', work: '/r/cache-0/work' }];
    expect(sandboxFstab(overlay, { dev, caches })).toContain(
      'shadowbox-cache /root/.cargo overlay lowerdir=/root/.cargo,upperdir=/r/cache-0/upper,workdir=/r/cache-0/work,userxattr,volatile 0 0\n',
    );
  });

  it('refuses paths mount(8) cannot express', () => {
    expect(() => sandboxFstab({ ...overlay, root: '/data/a,b' }, { dev })).toThrow(
      "cannot contain ',', ':'",
    );
  });
});

describe('sandboxCommand', () => {
  it('passes every variable part as an argument, never inside the script', () => {
    const command = sandboxCommand(overlay, ['cargo', 'test', '--', '$(rm -rf /)'], {
      ipPath: '/usr/sbin/ip',
      fstabPath: '/data/shadows/run-1/fstab',
      readOnlyMounts: ['/', '/home'],
      cwd: 'crates/core',
    });
    expect(command.file).toBe('unshare');
    const script = command.args[command.args.indexOf('-c') + 1]!;
    expect(script).not.toContain('/data');
    expect(script).not.toContain('cargo');
    expect(command.args.slice(-8)).toEqual([
      '/usr/sbin/ip',
      '2',
      '/',
      '/home',
      'cargo',
      'test',
      '--',
      '$(rm -rf /)',
    ]);
    expect(command.args).toContain('crates/core');
  });

  it('refuses an empty command', () => {
    expect(() =>
      sandboxCommand(overlay, [], { ipPath: 'ip', fstabPath: 'f', readOnlyMounts: [] }),
    ).toThrow('must have a program name');
  });
});

describe('sandboxSetupFailure', () => {
  it('tells a failed set-up from a command that exits 125 by itself', () => {
    expect(sandboxSetupFailure(125, 'shadowbox-sandbox: setup failed: cannot enter /w/x\n')).toBe(
      'cannot enter /w/x',
    );
    expect(sandboxSetupFailure(125, 'some tool exited 125')).toBeNull();
    expect(sandboxSetupFailure(1, 'shadowbox-sandbox: setup failed: x')).toBeNull();
  });
});

describe('writableMounts', () => {
  const mountinfo = [
    '22 1 0:21 / /proc rw,relatime - proc proc rw',
    '23 1 0:22 / /sys rw,relatime - sysfs sysfs rw',
    '25 1 0:5 / /dev rw,relatime - devtmpfs devtmpfs rw,size=4096k',
    '26 25 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw',
    '27 1 254:0 / / rw,relatime - ext4 /dev/vda rw',
    '28 27 254:1 / /home/my\\040files rw,relatime - ext4 /dev/vdb rw',
    '29 27 0:30 / /mnt/ro ro,nosuid - squashfs /dev/loop0 ro',
    '30 23 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
    '31 27 254:0 / / rw,relatime - ext4 /dev/vda rw',
  ].join('\n');

  it('lists writable real mounts once, decoding escapes, and skips pseudo and read-only ones', () => {
    expect(writableMounts(mountinfo)).toEqual(['/', '/home/my files']);
  });
});
