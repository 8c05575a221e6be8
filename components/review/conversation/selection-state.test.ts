import { describe, expect, it } from 'vitest';
import { reviewFiles, type DiffLine, type ReviewFile } from './diff-files';
import {
  noSelection,
  reduceSelection,
  type SelectionAction,
  type SelectionState,
} from './selection-state';
import { patch } from './test-support/conversation-fixtures';

const calc = reviewFiles(patch)[0] as ReviewFile;
const newLine = (n: number): DiffLine => {
  const line = calc.lines.find((l) => l.kind !== '-' && l.newLine === n);
  if (line === undefined) throw new Error(`no new line ${n}`);
  return line;
};
const on = (n: number, intent: 'select' | 'comment', extend = false): SelectionAction => ({
  type: 'line',
  file: calc,
  line: newLine(n),
  extend,
  intent,
});
const run = (...actions: SelectionAction[]): SelectionState =>
  actions.reduce(reduceSelection, noSelection);

describe('reduceSelection', () => {
  it('click 3, shift-click 5, then c: a comment box on lines 3–5', () => {
    const selected = run(on(3, 'select'), on(5, 'select', true));
    expect(selected.selection).toMatchObject({ startLine: 3, endLine: 5 });
    expect(selected.composer).toBeNull();
    expect(reduceSelection(selected, { type: 'comment' }).composer).toEqual({
      fileIndex: 0,
      path: 'calc.py',
      side: 'new',
      startLine: 3,
      endLine: 5,
    });
  });

  it('the + of a line in the selection comments on all of it; elsewhere on that line', () => {
    const selected = run(on(3, 'select'), on(5, 'select', true));
    expect(reduceSelection(selected, on(4, 'comment')).composer).toMatchObject({
      startLine: 3,
      endLine: 5,
    });
    const elsewhere = reduceSelection(selected, on(16, 'comment'));
    expect(elsewhere.selection).toMatchObject({ startLine: 16, endLine: 16 });
    expect(elsewhere.composer).toMatchObject({ startLine: 16, endLine: 16 });
    // Shift with the +: extends, then comments on the result.
    expect(reduceSelection(run(on(1, 'select')), on(3, 'comment', true)).composer).toMatchObject({
      startLine: 1,
      endLine: 3,
    });
  });

  it('c with nothing selected does nothing; Escape closes the box, then clears the selection', () => {
    expect(reduceSelection(noSelection, { type: 'comment' })).toBe(noSelection);
    const open = run(on(3, 'comment'));
    const closed = reduceSelection(open, { type: 'escape' });
    expect(closed.composer).toBeNull();
    expect(closed.selection).not.toBeNull();
    expect(reduceSelection(closed, { type: 'escape' })).toEqual(noSelection);
    expect(reduceSelection(open, { type: 'close' }).composer).toBeNull();
  });
});
