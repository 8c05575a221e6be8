import { describe, expect, it } from 'vitest';
import { clockTime, decisionParts, shortHash } from './decision';

const sha = '3f2a9c1e'.padEnd(64, '0');

describe('decisionParts', () => {
  it('names the verdict, the person, the time and the hash', () => {
    expect(
      decisionParts({
        verdict: 'approve',
        by: 'alice',
        at: '2026-12-03T14:02:59.000Z',
        sha256: sha,
      }),
    ).toEqual({ verb: 'approved', by: 'alice', time: '14:02 UTC', hash: '3f2a9c1e…' });
    expect(
      decisionParts({ verdict: 'reject', by: 'bob', at: '2026-12-03T09:05:00.000Z', sha256: sha })
        .verb,
    ).toBe('rejected');
  });

  it('keeps what it cannot shorten or read', () => {
    expect(shortHash('abc')).toBe('abc');
    expect(clockTime('not a date')).toBe('not a date');
  });
});
