import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRunLimits } from './run-limits';
import { prepareSandbox, type SandboxHost } from './sandbox-host';

const host: SandboxHost = {
  programs: {
    unshare: '/usr/bin/unshare',
    setpriv: '/usr/bin/setpriv',
    bwrap: '/usr/bin/bwrap',
    pivotRoot: '/usr/sbin/pivot_root',
    prlimit: null,
  },
  cgroups: null,
  hidden: [],
  extraReadOnly: [],
  identity: null,
  seccomp: Buffer.from('filter'),
};

describe('prepareSandbox', () => {
  it('binds extra files read-only and sockets writable into the root', async () => {
    const runDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-host-'));
    const home = path.join(runDir, 'home');
    const sandbox = await prepareSandbox(
      host,
      { kind: 'direct', root: '/srv/worktrees/task-1', home },
      ['true'],
      {
        runDir,
        env: { HOME: home, PATH: '/usr/bin:/bin' },
        limits: defaultRunLimits,
        files: [['/srv/egress-forwarder.mjs', '/run/shadowbox/egress-forwarder.mjs']],
        sockets: [[path.join(runDir, 'egress.sock'), '/run/shadowbox/egress.sock']],
      },
    );
    const fstab = await readFile(path.join(runDir, 'fstab'), 'utf8');
    const rootfs = path.join(runDir, 'rootfs');
    expect(fstab).toContain(
      `${path.join(runDir, 'egress.sock')} ${rootfs}/run/shadowbox/egress.sock none bind,rw,nosuid,nodev 0 0\n`,
    );
    expect(fstab).toContain(
      `/srv/egress-forwarder.mjs ${rootfs}/run/shadowbox/egress-forwarder.mjs none bind,ro,nosuid,nodev`,
    );
    // A direct workspace is bound writable at its own path.
    expect(fstab).toContain(
      `/srv/worktrees/task-1 ${rootfs}/srv/worktrees/task-1 none bind,rw,nosuid,nodev,X-mount.mkdir 0 0\n`,
    );
    // File targets exist before the mount; the filter is written for the set-up to open.
    expect(await readFile(path.join(rootfs, 'run/shadowbox/egress.sock'), 'utf8')).toBe('');
    expect(await readFile(path.join(runDir, 'seccomp.bpf'), 'utf8')).toBe('filter');
    expect(sandbox.args).toContain(path.join(runDir, 'seccomp.bpf'));
  });

  it.each([
    ['run/shadowbox/egress.sock', 'relative'],
    ['/run/shadowbox/../egress.sock', 'not normalized'],
    ['/srv/worktrees/task-1/egress.sock', 'inside the workspace'],
    ['/etc/passwd', 'over the run’s own /etc'],
    ['/tmp/egress.sock', 'on /tmp'],
    ['/usr/lib/egress.sock', 'under a read-only system tree (its target would be made there)'],
  ])('refuses a bound file at %s (%s), before writing anything', async (target) => {
    const runDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-host-'));
    await expect(
      prepareSandbox(
        host,
        { kind: 'direct', root: '/srv/worktrees/task-1', home: path.join(runDir, 'home') },
        ['true'],
        {
          runDir,
          env: { PATH: '/usr/bin' },
          limits: defaultRunLimits,
          sockets: [['/srv/egress.sock', target]],
        },
      ),
    ).rejects.toThrow(`prepareSandbox: a bound file's sandbox path must be absolute`);
    expect(await readdir(runDir)).toEqual([]);
  });
});
