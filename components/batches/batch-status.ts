import type { BatchStatus } from './batch-types';

/** Which shape and colour a batch's status gets (the task statuses' tones, app/globals.css). */
export const batchTone: Readonly<
  Record<BatchStatus, 'pending' | 'active' | 'waiting' | 'good' | 'bad' | 'stopped'>
> = {
  // A reviewer must drop a member before anything runs.
  conflicts: 'waiting',
  queued: 'pending',
  running: 'active',
  // The combined diff waits for review.
  passed: 'waiting',
  failed: 'bad',
  error: 'bad',
  approved: 'good',
  rejected: 'bad',
};

/** How often the page reads the batch again: every 2 s while it is tested, else not at all. */
export const pollMs = 2000;

export function pollInterval(status: BatchStatus | undefined): number | false {
  return status === 'queued' || status === 'running' ? pollMs : false;
}
