import type { CellStatusView, CompareRowView } from './compare-types';

/** The matrix's row filters, named as their buttons are. */
export const rowFilters = ['All', 'Broken only', 'Fixed only'] as const;
export type RowFilter = (typeof rowFilters)[number];

/**
 * The rows a filter keeps. "Broken": some hypothesis fails or lost a test the baseline passed;
 * "Fixed": some hypothesis passes a test the baseline failed (the server marks both per row).
 */
export function filterRows(rows: readonly CompareRowView[], filter: RowFilter): CompareRowView[] {
  if (filter === 'Broken only') return rows.filter((r) => r.broken);
  if (filter === 'Fixed only') return rows.filter((r) => r.fixed);
  return [...rows];
}

/** What a cell shows: short, since eight columns share the width; the status is its name. */
export const cellText: Readonly<Record<CellStatusView, string>> = {
  pass: 'pass',
  fail: 'fail',
  missing: 'missing',
  skipped: 'skipped',
  'not run': 'not run',
  unknown: '?',
};

/** What a screen reader hears for a cell: the test, the column, the status in words. */
export function cellLabel(test: string, column: string, status: CellStatusView): string {
  const said = status === 'unknown' ? 'unknown (not recorded per test)' : status;
  return `${test} in ${column}: ${said}`;
}
