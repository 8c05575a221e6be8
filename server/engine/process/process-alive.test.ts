import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from './process-alive';

describe('isProcessAlive', () => {
  it('is true for this process', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
  });

  it('is false for a process that has exited and been reaped', () => {
    const { pid } = spawnSync(process.execPath, ['-e', '']);
    expect(pid).toBeGreaterThan(0);
    expect(isProcessAlive(pid)).toBe(false);
  });

  it('is true for a process of another user (EPERM): pid 1', () => {
    // Run as root, signal 0 to pid 1 succeeds; as anyone else it is EPERM: alive either way.
    expect(isProcessAlive(1)).toBe(true);
  });
});
