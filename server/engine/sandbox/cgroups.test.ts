import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectCgroups, RunCgroup } from './cgroups';

/** A fake /proc/self and cgroup tree: detection only reads and creates plain files there. */
async function fakeMachine(
  mountinfo: string,
  cgroup: string,
): Promise<{ proc: string; root: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-cg-'));
  const proc = path.join(dir, 'proc');
  await mkdir(proc);
  await writeFile(path.join(proc, 'mountinfo'), mountinfo);
  await writeFile(path.join(proc, 'cgroup'), cgroup);
  return { proc, root: path.join(dir, 'root') };
}

const v1Mounts = [
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
  '39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids',
  '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
].join('\n');

describe('detectCgroups', () => {
  it("uses cgroup v1 memory and pids under the server's own groups", async () => {
    const { proc, root } = await fakeMachine(v1Mounts, '8:pids:/\n4:memory:/svc/abc\n0::/\n');
    const { support, notes } = await detectCgroups({ procSelf: proc, root });
    expect(support).toEqual({
      version: 1,
      memory: path.join(root, '/sys/fs/cgroup/memory/svc/abc/shadowbox'),
      pids: path.join(root, '/sys/fs/cgroup/pids/shadowbox'),
    });
    expect(notes).toEqual([]);
  });

  it('says why there is nothing to cap with, rather than pretending', async () => {
    const { proc, root } = await fakeMachine(
      '41 31 0:38 / /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw',
      '0::/user.slice/session-1.scope\n',
    );
    await mkdir(path.join(root, 'sys/fs/cgroup/user.slice/session-1.scope'), { recursive: true });
    await writeFile(
      path.join(root, 'sys/fs/cgroup/user.slice/session-1.scope/cgroup.controllers'),
      'cpu io',
    );
    const { support, notes } = await detectCgroups({ procSelf: proc, root });
    expect(support).toBeNull();
    expect(notes).toEqual([
      `the cgroup v2 group ${path.join(root, 'sys/fs/cgroup/user.slice/session-1.scope')} does not enable memory and pids for its children (run the server in a leaf of a delegated group)`,
    ]);
  });

  it('uses a delegated cgroup v2 group with both controllers', async () => {
    const { proc, root } = await fakeMachine(
      '41 31 0:38 / /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw',
      '0::/shadowbox.service\n',
    );
    const base = path.join(root, 'sys/fs/cgroup/shadowbox.service');
    // The kernel fills a new child's cgroup.controllers with what its parent enabled for children.
    await mkdir(path.join(base, 'shadowbox'), { recursive: true });
    await writeFile(path.join(base, 'shadowbox', 'cgroup.controllers'), 'cpu memory pids');
    const { support } = await detectCgroups({ procSelf: proc, root });
    expect(support).toEqual({ version: 2, parent: path.join(base, 'shadowbox') });
    expect(await readFile(path.join(base, 'shadowbox', 'cgroup.subtree_control'), 'utf8')).toBe(
      '+memory +pids',
    );
  });
});

describe('RunCgroup', () => {
  it('writes the caps and reads OOM kills and refused forks back', async () => {
    const { proc, root } = await fakeMachine(v1Mounts, '8:pids:/\n4:memory:/\n0::/\n');
    const { support } = await detectCgroups({ procSelf: proc, root });
    if (support === null) throw new Error('no support');
    const group = await RunCgroup.create(support, 'run-1-x', { memoryBytes: 1 << 20, pids: 32 });
    const memory = path.join(root, 'sys/fs/cgroup/memory/shadowbox/run-1-x');
    const pids = path.join(root, 'sys/fs/cgroup/pids/shadowbox/run-1-x');
    expect(await readFile(path.join(memory, 'memory.limit_in_bytes'), 'utf8')).toBe('1048576');
    expect(await readFile(path.join(pids, 'pids.max'), 'utf8')).toBe('32');
    expect(group.procsFiles).toEqual([
      path.join(memory, 'cgroup.procs'),
      path.join(pids, 'cgroup.procs'),
    ]);
    expect(await group.usage()).toEqual({ oomKills: 0, pidsCapHits: 0 });
    await writeFile(
      path.join(memory, 'memory.oom_control'),
      'oom_kill_disable 0\nunder_oom 0\noom_kill 2\n',
    );
    await writeFile(path.join(pids, 'pids.events'), 'max 7\n');
    expect(await group.usage()).toEqual({ oomKills: 2, pidsCapHits: 7 });
  });
});
