import { describe, expect, it } from 'vitest';
import { cellLabel, filterRows } from './compare-filter';
import type { CompareRowView } from './compare-types';

const rows: CompareRowView[] = [
  { test: 'a', cells: ['pass', 'fail'], broken: true, fixed: false },
  { test: 'b', cells: ['fail', 'pass'], broken: false, fixed: true },
  { test: 'c', cells: ['pass', 'skipped'], broken: false, fixed: false },
  { test: 'd', cells: ['fail', 'pass', 'missing'], broken: false, fixed: true },
];

describe('filterRows', () => {
  it('keeps every row for All, in order', () => {
    expect(filterRows(rows, 'All').map((r) => r.test)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('keeps the broken rows for "Broken only" and the fixed ones for "Fixed only"', () => {
    expect(filterRows(rows, 'Broken only').map((r) => r.test)).toEqual(['a']);
    expect(filterRows(rows, 'Fixed only').map((r) => r.test)).toEqual(['b', 'd']);
  });
});

describe('cellLabel', () => {
  it('names the test, the column and the status', () => {
    expect(cellLabel('t::a', 'fix-1', 'missing')).toBe('t::a in fix-1: missing');
    expect(cellLabel('t::a', 'counts', 'unknown')).toBe(
      't::a in counts: unknown (not recorded per test)',
    );
  });
});
