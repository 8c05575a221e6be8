import { describe, expect, it } from 'vitest';
import { RecentMemo } from './recent-memo';

describe('RecentMemo', () => {
  const clock = (): { now: () => number; advance: (ms: number) => void } => {
    let t = 0;
    return { now: () => t, advance: (ms) => void (t += ms) };
  };

  it('reuses a value for the same key within its lifetime', () => {
    const time = clock();
    const memo = new RecentMemo<number>(1000, 8, time.now);
    let computed = 0;
    const compute = (): number => (computed += 1);
    expect(memo.get('a', compute)).toBe(1);
    time.advance(999);
    expect(memo.get('a', compute)).toBe(1);
    expect(computed).toBe(1);
  });

  it('computes afresh when the inputs (the key) change', () => {
    const memo = new RecentMemo<string>(60_000);
    expect(memo.get('PATH=/usr/bin', () => 'one')).toBe('one');
    expect(memo.get('PATH=/opt/bin', () => 'two')).toBe('two');
    expect(memo.get('PATH=/usr/bin', () => 'three')).toBe('one');
  });

  it('computes afresh once the value is older than its lifetime (the host may have changed)', () => {
    const time = clock();
    const memo = new RecentMemo<string>(1000, 8, time.now);
    expect(memo.get('k', () => 'before')).toBe('before');
    time.advance(1000);
    expect(memo.get('k', () => 'after')).toBe('after');
  });

  it('keeps at most maxKeys keys, dropping the oldest', () => {
    const memo = new RecentMemo<number>(60_000, 2);
    memo.get('a', () => 1);
    memo.get('b', () => 2);
    memo.get('c', () => 3);
    expect(memo.get('a', () => 4)).toBe(4);
    expect(memo.get('c', () => 5)).toBe(3);
  });
});
