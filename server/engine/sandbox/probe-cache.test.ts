import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeCacheKey, probePassedBefore, recordProbePass } from './probe-cache';

const programs = {
  unshare: '/bin/sh',
  setpriv: '/bin/sh',
  bwrap: '/bin/sh',
  pivotRoot: '/bin/sh',
  prlimit: null,
};

describe('the probe cache (a passed probe remembered across processes)', () => {
  it('remembers a pass under its key only', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-probe-cache-'));
    const key = await probeCacheKey({ programs, cgroups: null, command: ['a'] });
    expect(await probePassedBefore(dir, key)).toBe(false);
    await recordProbePass(dir, key);
    expect(await probePassedBefore(dir, key)).toBe(true);
    const other = await probeCacheKey({ programs, cgroups: null, command: ['b'] });
    expect(await probePassedBefore(dir, other)).toBe(false);
  });

  it('makes another key for other programs or control groups', async () => {
    const base = await probeCacheKey({ programs, cgroups: null, command: ['a'] });
    const bwrap = await probeCacheKey({
      programs: { ...programs, bwrap: '/bin/true' },
      cgroups: null,
      command: ['a'],
    });
    const cgroups = await probeCacheKey({
      programs,
      cgroups: { version: 2, parent: '/sys/fs/cgroup/x' },
      command: ['a'],
    });
    expect(new Set([base, bwrap, cgroups]).size).toBe(3);
  });

  it('does not trust a record others can write', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-probe-cache-'));
    const key = await probeCacheKey({ programs, cgroups: null, command: ['a'] });
    await writeFile(path.join(dir, 'sandbox-probe-pass.json'), JSON.stringify({ keys: [key] }));
    await chmod(path.join(dir, 'sandbox-probe-pass.json'), 0o666);
    expect(await probePassedBefore(dir, key)).toBe(false);
    await chmod(path.join(dir, 'sandbox-probe-pass.json'), 0o600);
    await chmod(dir, 0o777);
    expect(await probePassedBefore(dir, key)).toBe(false);
    await chmod(dir, 0o700);
    expect(await probePassedBefore(dir, key)).toBe(true);
  });
});
