'use client';

import { useState } from 'react';
import { plural } from '../format';
import type { BatchView } from './batch-types';
import { conflictCellName, conflictMatrix } from './conflict-matrix';

/**
 * The preflight's verdict on every pair: a members × members grid counting the files a pair
 * cannot merge; a cell opens that pair's files and the hunks git marked. Nothing is tested until
 * a reviewer drops a member of each conflicting pair.
 */
export function BatchConflicts({ batch }: { readonly batch: BatchView }) {
  const matrix = conflictMatrix(batch.members, batch.conflicts);
  // The pair shown, as "row:column" indices into the matrix.
  const [open, setOpen] = useState<{ readonly row: number; readonly column: number } | null>(null);
  const openCell = open === null ? undefined : matrix.cells[open.row]?.[open.column];
  const rowMember = open === null ? undefined : matrix.members[open.row];
  const columnMember = open === null ? undefined : matrix.members[open.column];

  return (
    <section aria-labelledby="batch-conflicts-heading">
      <h2 id="batch-conflicts-heading">Conflicts</h2>
      <p className="notice" role="note">
        {plural(batch.conflicts.length, 'pair')} of members do not merge. Nothing runs until a
        member is dropped{batch.can.drop ? ' (Drop, in the members above)' : ''}.
      </p>
      <div className="table-scroll">
        <table className="conflict-matrix">
          <caption>Conflicting files between members (pick a number to see them)</caption>
          <thead>
            <tr>
              <td />
              {matrix.members.map((member) => (
                <th key={member.taskId} scope="col">
                  {member.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {matrix.members.map((row, r) => (
              <tr key={row.taskId}>
                <th scope="row">{row.label}</th>
                {matrix.cells[r]?.map((cell, c) => {
                  const column = matrix.members[c];
                  const key = column?.taskId ?? String(c);
                  if (cell.kind === 'self') return <td key={key}>—</td>;
                  if (cell.kind === 'clean' || column === undefined) return <td key={key}>0</td>;
                  const pressed = open?.row === r && open.column === c;
                  return (
                    <td key={key}>
                      <button
                        type="button"
                        aria-pressed={pressed}
                        aria-label={conflictCellName(row, column, cell.files)}
                        onClick={() => setOpen(pressed ? null : { row: r, column: c })}
                      >
                        {cell.files}
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {openCell?.kind !== 'conflict' || rowMember === undefined || columnMember === undefined ? (
        <p className="hint">Pick a number to see that pair&apos;s files and their hunks.</p>
      ) : (
        <div className="conflict-files">
          <h3>{conflictCellName(rowMember, columnMember, openCell.files)}</h3>
          {openCell.conflict.files.map((file) => (
            <div key={file.path}>
              <h4 className="mono">{file.path}</h4>
              {file.hunks.length === 0 ? (
                <p className="muted">git named no region of this file.</p>
              ) : (
                file.hunks.map((hunk, index) => (
                  // Focusable, so the keyboard can scroll a long hunk.
                  <pre key={index} tabIndex={0}>
                    {hunk}
                  </pre>
                ))
              )}
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
