import { mkdtemp, readdir } from 'node:fs/promises';
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
    prlimit: null,
  },
  cgroups: null,
  hidden: [],
  extraReadOnly: [],
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
    const { args } = sandbox;
    const socket = args.indexOf('/run/shadowbox/egress.sock');
    expect(args.slice(socket - 2, socket)).toEqual(['--bind', path.join(runDir, 'egress.sock')]);
    const script = args.indexOf('/run/shadowbox/egress-forwarder.mjs');
    expect(args.slice(script - 2, script)).toEqual(['--ro-bind', '/srv/egress-forwarder.mjs']);
    // A direct workspace is bound writable at its own path.
    expect(args.join(' ')).toContain('--bind /srv/worktrees/task-1 /srv/worktrees/task-1 ');
  });

  it.each([
    ['run/shadowbox/egress.sock', 'relative'],
    ['/run/shadowbox/../egress.sock', 'not normalized'],
    ['/srv/worktrees/task-1/egress.sock', 'inside the workspace'],
    ['/etc/passwd', 'over the run’s own /etc'],
    ['/tmp/egress.sock', 'on /tmp'],
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
