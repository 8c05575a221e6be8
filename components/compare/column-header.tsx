import { formatDuration } from '../format';
import type { CompareColumnView } from './compare-types';

/** How a column's cells are known, said where they are not plain facts. */
const evidenceText: Readonly<Record<CompareColumnView['evidence'], string | null>> = {
  'by test': null,
  derived: 'derived from its delta',
  'failures only': 'failures only',
  'totals only': 'totals only: no test names',
  unknown: 'per-test results unknown',
  'not run': 'no test ran',
};

/** Who submitted it, in words: the origin and, where known, the author. */
function submitter(column: CompareColumnView): string | null {
  if (column.kind === 'baseline') return null;
  const origin = column.origin ?? 'unknown origin';
  return column.author === null ? origin : `${origin} · ${column.author}`;
}

/**
 * One column's head: the hypothesis (the winner starred), its iteration and verdict, what it
 * fixed and broke against its reference, its size and duration, who submitted it, and how its
 * cells are known when that is not test by test. Everything shown is text: names come from tasks.
 */
export function ColumnHeader({
  column,
  showIteration,
}: {
  readonly column: CompareColumnView;
  readonly showIteration: boolean;
}) {
  const evidence = evidenceText[column.evidence];
  const details = [
    column.readAs === null ? null : `read ${column.readAs}`,
    column.basis === null ? null : `delta by ${column.basis}`,
    column.note,
  ].filter((d) => d !== null);
  const who = submitter(column);
  return (
    <div
      role="columnheader"
      className={`cmp-head${column.winner ? ' cmp-head-winner' : ''}`}
      title={details.join('\n')}
    >
      <div className="cmp-head-name">
        {column.winner ? <span aria-label="winner">★ </span> : null}
        {column.name}
      </div>
      <div className="cmp-head-line">
        {[
          showIteration && column.iteration !== null ? `iteration ${column.iteration}` : null,
          column.verdict,
        ]
          .filter((x) => x !== null)
          .join(' · ') || (column.kind === 'baseline' ? 'before any change' : '')}
      </div>
      {column.fixed !== null || column.broken !== null ? (
        <div className="cmp-head-line">
          <span className="cmp-fixed">fixed {column.fixed ?? '?'}</span> ·{' '}
          <span className="cmp-broken">broken {column.broken ?? '?'}</span>
        </div>
      ) : null}
      <div className="cmp-head-line muted">
        {column.changedLines === null ? '' : `${column.changedLines} lines · `}
        {formatDuration(column.durationMs)}
      </div>
      {who === null ? null : <div className="cmp-head-line muted">{who}</div>}
      {evidence === null ? null : <div className="cmp-head-note">{evidence}</div>}
    </div>
  );
}
