import { describe, expect, it } from 'vitest';
import {
  rootOverlays,
  sandboxCommand,
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
  writable: [],
  overlays: rootOverlays(overlay),
  tmpfs: ['/data/shadows/run-1/home'],
  tmpfsBytes: 1024 * 1024,
  tmpfsInodes: 1000,
  files: [],
  cwd: '/data/work spaces/t1/crates/core',
  setpriv: '/usr/bin/setpriv',
  owner: { uid: 65534, gid: 65534, label: 'nobody (uid 65534)' },
};

const options: SandboxCommandOptions = {
  programs: {
    unshare: '/usr/bin/unshare',
    setpriv: '/usr/bin/setpriv',
    bwrap: '/usr/bin/bwrap',
    pivotRoot: '/usr/sbin/pivot_root',
    prlimit: null,
  },
  fstabPath: '/data/shadows/run-1/fstab',
  rootfs: '/data/shadows/run-1/rootfs',
  filterPath: '/data/shadows/run-1/seccomp.bpf',
  root,
  cgroupProcs: ['/sys/fs/cgroup/pids/shadowbox/run-1/cgroup.procs'],
  maxFileBytes: 1024 * 1024,
  identity: { uid: 65534, gid: 65534, label: 'nobody (uid 65534)' },
};

describe('rootOverlays', () => {
  it('mounts the overlay on the workspace path itself', () => {
    expect(rootOverlays(overlay)).toEqual([
      {
        target: '/data/work spaces/t1',
        upper: '/data/shadows/run-1/upper',
        work: '/data/shadows/run-1/work',
        source: 'shadowbox',
      },
    ]);
  });

  it('takes the layers from the tmpfs when the upper layer lives there', () => {
    expect(rootOverlays({ ...overlay, tmpfsUpper: true })[0]).toMatchObject({
      upper: '/data/shadows/run-1/work/upper',
      work: '/data/shadows/run-1/work/work',
    });
  });

  it('mounts nothing for a direct workspace (it is bound writable) and one overlay per cache', () => {
    const caches = [{ dir: '/root/.cargo', upper: '/r/cache-0/upper', work: '/r/cache-0/work' }];
    expect(rootOverlays({ kind: 'direct', root: '/ws', home: '/h' }, caches)).toEqual([
      {
        target: '/root/.cargo',
        upper: '/r/cache-0/upper',
        work: '/r/cache-0/work',
        source: 'shadowbox-cache',
      },
    ]);
  });
});

describe('sandboxCommand', () => {
  it('dies with its parent, and passes every variable part as an argument, never in the script', () => {
    const command = sandboxCommand(overlay, ['cargo', 'test', '--', '$(rm -rf /)'], options);
    expect(command.file).toBe('/usr/bin/unshare');
    // A root server's set-up makes a mount namespace only, and hands bubblewrap to the identity.
    expect(command.args.slice(0, 4)).toEqual(['--mount', '--propagation', 'private', '--']);
    const setpriv = command.args.indexOf('--reuid=65534');
    expect(command.args.slice(setpriv - 1, setpriv + 5)).toEqual([
      '/usr/bin/setpriv',
      '--reuid=65534',
      '--regid=65534',
      '--clear-groups',
      '--',
      '/usr/bin/bwrap',
    ]);
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

  it('maps a non-root server to itself in a user namespace, with no identity to switch to', () => {
    const command = sandboxCommand(overlay, ['true'], { ...options, identity: null });
    expect(command.args.slice(0, 6)).toEqual([
      '--user',
      '--map-root-user',
      '--mount',
      '--propagation',
      'private',
      '--',
    ]);
    expect(command.args.some((a) => a.startsWith('--reuid'))).toBe(false);
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
