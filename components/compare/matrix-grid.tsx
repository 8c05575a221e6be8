'use client';

import { useMemo } from 'react';
import type { CompareColumnView, CompareRowView } from './compare-types';
import { MatrixHeaderRow, MatrixRow, type OpenHandler } from './matrix-row';
import { useMatrixWindow } from './use-matrix-window';

/** Every row is one line high: fixed, so the window needs no measuring while it scrolls. */
export const rowHeight = 30;

/**
 * The matrix as an ARIA grid: a sticky header row of columns, then the rows, windowed (only the
 * rows near the visible part of its own scroll box are rendered: 3,000 rows render a few dozen).
 * `aria-rowcount`/`aria-rowindex` tell assistive technology where a rendered row is in the whole.
 */
export function MatrixGrid({
  columns,
  rows,
  showIteration,
  openCell,
  onOpen,
}: {
  readonly columns: readonly CompareColumnView[];
  readonly rows: readonly CompareRowView[];
  readonly showIteration: boolean;
  readonly openCell: { readonly test: string; readonly column: number } | null;
  /** Kept stable by the caller: the rows are memoized on it. */
  readonly onOpen: OpenHandler;
}) {
  const { scrollRef, virtualizer } = useMatrixWindow({
    count: rows.length,
    keyOf: (index) => rows[index]?.test ?? String(index),
    rowHeight,
  });
  const template = `minmax(14rem, 2.2fr) repeat(${columns.length}, minmax(6.5rem, 1fr))`;
  const columnNames = useMemo(() => columns.map((c) => c.name), [columns]);
  return (
    <div ref={scrollRef} className="cmp-scroll">
      <div
        role="grid"
        aria-label="Tests whose status differs, by column"
        aria-rowcount={rows.length + 1}
        aria-colcount={columns.length + 1}
        className="cmp-grid"
      >
        <MatrixHeaderRow columns={columns} template={template} showIteration={showIteration} />
        <div role="rowgroup" className="cmp-body" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (row === undefined) return null;
            return (
              <MatrixRow
                key={item.key}
                row={row}
                rowIndex={item.index + 2}
                top={item.start}
                height={rowHeight}
                template={template}
                columnNames={columnNames}
                openColumn={openCell?.test === row.test ? openCell.column : null}
                onOpen={onOpen}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}
