import { describe, expect, it } from 'vitest';
import type { TestCase } from '../../engine/parsers';
import { keptCasesColumn, maxKeptCasesBytes } from '../task-rows';

/** How a hypothesis run's tests are kept for the matrix (task-rows.ts), within the cap. */
describe('keptCasesColumn', () => {
  const many = (count: number, status: (i: number) => TestCase['status']): TestCase[] =>
    Array.from({ length: count }, (_, i) => ({
      id: `tests/test_${'x'.repeat(80)}_${i}`,
      status: status(i),
    }));

  it('keeps the whole list under the cap', () => {
    const cases = many(10, (i) => (i === 3 ? 'failed' : 'passed'));
    expect(keptCasesColumn({ cases })).toEqual({ cases });
  });

  it('keeps the failures only beyond the cap, and nothing when even they exceed it', () => {
    const count = Math.ceil(maxKeptCasesBytes / 100) + 10;
    const cases = many(count, (i) => (i % 1000 === 0 ? 'failed' : 'passed'));
    const kept = keptCasesColumn({ cases }).cases as unknown as TestCase[];
    expect(kept).toHaveLength(Math.ceil(count / 1000));
    expect(kept.every((c) => c.status === 'failed')).toBe(true);
    expect(keptCasesColumn({ cases: many(count, () => 'failed') })).toEqual({});
  });

  it('keeps the named failures of a run that names only those', () => {
    expect(keptCasesColumn({ cases: [], failing: ['a'] })).toEqual({
      cases: [{ id: 'a', status: 'failed' }],
    });
  });
});
