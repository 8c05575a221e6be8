import { describe, expect, it } from 'vitest';
import { nextCheckMs } from './run-watch';

const mib = 1024 * 1024;

describe('nextCheckMs (when the disk watcher measures the upper layer again)', () => {
  it('waits longer when the run is far below its cap', () => {
    const far = nextCheckMs(5, 650 * mib, 4096 * mib);
    const near = nextCheckMs(5, 4000 * mib, 4096 * mib);
    expect(far).toBeGreaterThan(1000);
    expect(near).toBe(200);
  });

  it('never measures more often than every 200 ms, nor less often than every 5 s', () => {
    expect(nextCheckMs(0, 4096 * mib, 4096 * mib)).toBe(200);
    expect(nextCheckMs(0, 0, 1024 * 1024 * mib)).toBe(5000);
  });

  it('spaces slow walks out, whatever the room left', () => {
    expect(nextCheckMs(100, 4000 * mib, 4096 * mib)).toBe(2000);
  });
});
