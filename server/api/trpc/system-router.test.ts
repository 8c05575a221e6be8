import { describe, expect, it } from 'vitest';
import { fakeUser } from '../../test-support/actors';
import { FakeTaskService } from '../http/test-support/fake-tasks';
import { createContextInner } from './context';
import { createCaller } from './root';
import type { SandboxStatus } from '../../runtime';

const status: SandboxStatus = {
  mode: 'overlay',
  fallbackReason: null,
  capabilities: {
    memory: 'cgroup v1',
    pids: 'rlimit per user',
    disk: 'upper-layer watcher and file-size rlimit',
    identity: 'nobody (uid 65534)',
    seccomp: 'seccomp filter (x64, 53 calls denied)',
    proc: '/proc/sys, /proc/irq, /proc/bus, /proc/fs read-only; 3 kernel files masked',
    notes: ['the process cap counts the sandbox user’s processes, not the run’s'],
  },
  defaultLimits: { maxMemoryMb: 4096, maxPids: 1024, maxDiskMb: 4096, maxInodes: 200_000 },
};

describe('system.sandbox', () => {
  it("reports the probe's caps, including the ones enforced only in part", async () => {
    const caller = createCaller(
      createContextInner({
        runtime: { tasks: new FakeTaskService(), sandbox: status },
        actor: fakeUser('alice'),
      }),
    );
    expect(await caller.system.sandbox()).toEqual(status);
  });

  it('is refused to a caller without the UI header', async () => {
    const caller = createCaller(
      createContextInner({
        runtime: { tasks: new FakeTaskService(), sandbox: status },
        actor: fakeUser('alice'),
        origin: 'unmarked',
      }),
    );
    await expect(caller.system.sandbox()).rejects.toThrow('needs the header "x-shadowbox-ui: 1"');
  });
});
