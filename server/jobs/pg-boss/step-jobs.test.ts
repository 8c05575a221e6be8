import { describe, expect, it } from 'vitest';
import { followUpOf, singletonKey, stepQueue, workerOfQueue } from './step-jobs';

const now = new Date('2030-01-01T00:00:00.000Z');

describe('followUpOf', () => {
  it('maps continue to a job now, and done or a park without deadline to none', () => {
    expect(followUpOf({ kind: 'continue' }, now)).toEqual({ lane: 'now' });
    expect(followUpOf({ kind: 'done' }, now)).toBeNull();
    expect(followUpOf({ kind: 'park', until: null }, now)).toBeNull();
  });

  it('maps a park until a later time to a timer job then, and a past time to a job now', () => {
    const later = new Date(now.getTime() + 3000);
    expect(followUpOf({ kind: 'park', until: later }, now)).toEqual({ lane: 'timer', at: later });
    expect(followUpOf({ kind: 'park', until: now }, now)).toEqual({ lane: 'now' });
  });
});

describe('step queue names and keys', () => {
  it('names one queue per worker and keeps wake-ups and timers of a task apart', () => {
    expect(workerOfQueue(stepQueue('host:12:ab'))).toBe('host:12:ab');
    expect(workerOfQueue('other')).toBeNull();
    expect(singletonKey('t1', 'now')).not.toBe(singletonKey('t1', 'timer'));
  });
});
