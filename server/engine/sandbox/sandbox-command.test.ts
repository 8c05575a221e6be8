import { describe, expect, it } from 'vitest';
import {
  sandboxCommand,
  sandboxFstab,
  sandboxSetupFailure,
  type SandboxCommandOptions,
  type SandboxLayout,
} from './sandbox-command';
import type { SandboxRoot } from './sandbox-root';

const overlay: SandboxLayout = {
  kind: 'overlay',
  root: '/data/work spaces/t1',
  upper: '/data/shadows/run-1/upper',
  work: '/data/shadows/run-1/work',
  deleteList: '/data/shadows/run-1/delete-list',
  tmpfsUpper: false,
  home: '/data/shadows/run-1/home',
};

const root: SandboxRoot = {
  readOnly: ['/usr'],
  symlinks: [['/bin', 'usr/bin']],
  writable: ['/data/work spaces/t1'],
  tmpfs: ['/data/shadows/run-1/home'],
  tmpfsBytes: 1024 * 1024,
  files: [],
  cwd: '/data/work spaces/t1/crates/core',
  setpriv: '/usr/bin/setpriv',
};

const options: SandboxCommandOptions = {
  programs: {
    unshare: '/usr/bin/unshare',
    setpriv: '/usr/bin/setpriv',
    bwrap: '/usr/bin/bwrap',
    prlimit: null,
  },
  fstabPath: '/data/shadows/run-1/fstab',
  root,
  cgroupProcs: ['/sys/fs/cgroup/pids/shadowbox/run-1/cgroup.procs'],
  maxFileBytes: 1024 * 1024,
};

describe('sandboxFstab', () => {
  it('mounts the overlay on the workspace path itself', () => {
    expect(sandboxFstab(overlay)).toBe(
      'shadowbox /data/work\\040spaces/t1 overlay lowerdir=/data/work\\040spaces/t1,upperdir=/data/shadows/run-1/upper,workdir=/data/shadows/run-1/work,userxattr,volatile 0 0\n',
    );
  });

  it('takes the layers from the tmpfs when the upper layer lives there', () => {
    expect(sandboxFstab({ ...overlay, tmpfsUpper: true })).toContain(
      'upperdir=/data/shadows/run-1/work/upper,workdir=/data/shadows/run-1/work/work,userxattr,volatile',
    );
  });

  it('mounts nothing for a direct workspace (bubblewrap binds it writable)', () => {
    expect(sandboxFstab({ kind: 'direct', root: '/ws', home: '/h' })).toBe('');
  });

  it('gives each toolchain cache its own overlay', () => {
    const caches = [{ dir: '/root/.cargo', upper: '/r/cache-0/upper', work: '/r/cache-0/work' }];
    expect(sandboxFstab(overlay, caches)).toContain(
      'shadowbox-cache /root/.cargo overlay lowerdir=/root/.cargo,upperdir=/r/cache-0/upper,workdir=/r/cache-0/work,userxattr,volatile 0 0\n',
    );
  });

  it('refuses paths mount(8) cannot express', () => {
    expect(() => sandboxFstab({ ...overlay, root: '/data/a,b' })).toThrow(
      "cannot contain ',', ':'",
    );
  });
});

describe('sandboxCommand', () => {
  it('dies with its parent, and passes every variable part as an argument, never in the script', () => {
    const command = sandboxCommand(overlay, ['cargo', 'test', '--', '$(rm -rf /)'], options);
    expect(command.file).toBe('/usr/bin/unshare');
    expect(command.args.slice(0, 4)).toEqual(['--user', '--map-root-user', '--mount', '--']);
    const script = command.args[command.args.indexOf('-c') + 1]!;
    expect(script).not.toContain('/data');
    expect(script).not.toContain('cargo');
    expect(command.args).toContain('/sys/fs/cgroup/pids/shadowbox/run-1/cgroup.procs');
    // RLIMIT_FSIZE in 512-byte blocks.
    expect(command.args).toContain('2048');
    const bwrap = command.args.indexOf('/usr/bin/bwrap');
    expect(bwrap).toBeGreaterThan(0);
    expect(command.args.slice(-10)).toEqual([
      '/usr/bin/setpriv',
      '--bounding-set=-all',
      '--inh-caps=-all',
      '--ambient-caps=-all',
      '--no-new-privs',
      '--',
      'cargo',
      'test',
      '--',
      '$(rm -rf /)',
    ]);
  });

  it('refuses an empty command', () => {
    expect(() => sandboxCommand(overlay, [], options)).toThrow('must have a program name');
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
