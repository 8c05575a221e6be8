import type { CellStatus, ColumnEvidence, CompareColumn, CompareRow } from './compare-schema';

/** A status a run reported (or, for `missing`, the absence a complete list proves). */
export type KnownStatus = 'pass' | 'fail' | 'skipped' | 'missing';

/**
 * What one column knows of its tests. With `statuses`: those named; a test not named is `missing`
 * when `complete` (the run named every test it ran) and `unknown` otherwise. Without: every cell
 * is `not run` (no test ran) or `unknown` (what ran is not known).
 */
export type ColumnTests =
  | {
      readonly evidence: Extract<ColumnEvidence, 'by test' | 'derived' | 'failures only'>;
      readonly statuses: ReadonlyMap<string, KnownStatus>;
      readonly complete: boolean;
    }
  | { readonly evidence: Extract<ColumnEvidence, 'totals only' | 'unknown' | 'not run'> };

export interface MatrixColumn {
  readonly header: Omit<CompareColumn, 'evidence'>;
  readonly tests: ColumnTests;
}

/** `columns[0]` is the baseline; the others are hypotheses. */
export interface BuiltMatrix {
  readonly columns: CompareColumn[];
  readonly rows: CompareRow[];
}

function cellOf(tests: ColumnTests, id: string): CellStatus {
  if (!('statuses' in tests)) return tests.evidence === 'not run' ? 'not run' : 'unknown';
  return tests.statuses.get(id) ?? (tests.complete ? 'missing' : 'unknown');
}

/** Only reported statuses make a difference: `not run` and `unknown` say nothing about a test. */
const isKnown = (cell: CellStatus): boolean => cell !== 'not run' && cell !== 'unknown';

/**
 * The matrix: the columns in the order given (the baseline first), and one row per test whose
 * known statuses are not all the same, sorted by test id (code units, so the order is the same on
 * every machine). A column that ran no test, or whose tests are not known, shows that in every
 * cell but never makes a row by itself: otherwise one hypothesis that did not build would list
 * every test of the suite.
 */
export function buildMatrix(columns: readonly MatrixColumn[]): BuiltMatrix {
  const ids = new Set<string>();
  for (const { tests } of columns) {
    if ('statuses' in tests) for (const id of tests.statuses.keys()) ids.add(id);
  }
  const rows: CompareRow[] = [];
  for (const test of [...ids].sort(byCodeUnits)) {
    const cells = columns.map((column) => cellOf(column.tests, test));
    const known = cells.filter(isKnown);
    if (known.every((cell) => cell === known[0])) continue;
    rows.push({ test, cells, ...changeOf(cells) });
  }
  return {
    columns: columns.map(({ header, tests }) => ({ ...header, evidence: tests.evidence })),
    rows,
  };
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Against the baseline (the first cell): broken where a hypothesis fails or lost a test the
 * baseline passed, fixed where one passes a test the baseline failed.
 */
function changeOf(cells: readonly CellStatus[]): { broken: boolean; fixed: boolean } {
  const [baseline, ...hypotheses] = cells;
  return {
    broken: baseline === 'pass' && hypotheses.some((c) => c === 'fail' || c === 'missing'),
    fixed: baseline === 'fail' && hypotheses.some((c) => c === 'pass'),
  };
}
