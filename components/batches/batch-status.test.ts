import { describe, expect, it } from 'vitest';
import { batchTone, pollInterval, pollMs } from './batch-status';

describe('pollInterval', () => {
  it('polls while the batch is queued or running, and stops once it has an outcome', () => {
    expect(pollInterval('queued')).toBe(pollMs);
    expect(pollInterval('running')).toBe(pollMs);
    for (const status of [
      'conflicts',
      'passed',
      'failed',
      'error',
      'approved',
      'rejected',
    ] as const) {
      expect(pollInterval(status)).toBe(false);
    }
    expect(pollInterval(undefined)).toBe(false);
  });
});

describe('batchTone', () => {
  it('marks what waits for a person apart from what is at work or done', () => {
    expect(batchTone.conflicts).toBe('waiting');
    expect(batchTone.passed).toBe('waiting');
    expect(batchTone.running).toBe('active');
    expect(batchTone.failed).toBe('bad');
    expect(batchTone.approved).toBe('good');
  });
});
