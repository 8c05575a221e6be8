import { describe, expect, it } from 'vitest';
import { reviewFiles, type ReviewFile } from './diff-files';
import { isSelected, linesText, placeText, selectLine, type LineSelection } from './line-selection';
import { patch } from './test-support/conversation-fixtures';

const files = reviewFiles(patch);
const calc = files[0] as ReviewFile;
const notes = files[1] as ReviewFile;

/** The line of calc.py shown with this number on this side (context lines have both). */
function lineAt(file: ReviewFile, side: 'new' | 'old', number: number) {
  const line = file.lines.find((l) =>
    side === 'new'
      ? l.kind !== '-' && l.newLine === number
      : l.kind !== '+' && l.oldLine === number,
  );
  if (line === undefined) throw new Error(`no ${side} line ${number}`);
  return line;
}

const click = (
  current: LineSelection | null,
  side: 'new' | 'old',
  number: number,
  extend = false,
  file = calc,
) => selectLine(current, file, lineAt(file, side, number), extend);

describe('reviewFiles', () => {
  it('reads the patch mail into files with both line numbers', () => {
    expect(files.map((f) => [f.index, f.path, f.status])).toEqual([
      [0, 'calc.py', 'modified'],
      [1, 'notes.md', 'added'],
    ]);
    expect(calc.lines.map((l) => `${l.kind}${l.oldLine}/${l.newLine}`)).toEqual([
      ' 1/1',
      '-2/0',
      '+0/2',
      ' 3/3',
      ' 4/4',
      ' 5/5',
      ' 15/15',
      ' 16/16',
      ' 17/17',
      '-18/0',
      '+0/18',
    ]);
  });
});

describe('selectLine', () => {
  it('selects a line, and shift-click extends the range from where it started (3 then 5: 3–5)', () => {
    const three = click(null, 'new', 3);
    expect(three).toEqual({
      fileIndex: 0,
      path: 'calc.py',
      side: 'new',
      anchor: 3,
      startLine: 3,
      endLine: 3,
    });
    const range = click(three, 'new', 5, true);
    expect(range).toMatchObject({ side: 'new', anchor: 3, startLine: 3, endLine: 5 });
    // Upwards from the same anchor; then a plain click starts over.
    expect(click(range, 'new', 1, true)).toMatchObject({ startLine: 1, endLine: 3 });
    expect(click(range, 'new', 4)).toMatchObject({ anchor: 4, startLine: 4, endLine: 4 });
  });

  it('counts a context or added line as the new side and a removed line as the old side', () => {
    expect(click(null, 'new', 2)).toMatchObject({ side: 'new', startLine: 2 });
    expect(click(null, 'old', 2)).toMatchObject({ side: 'old', path: 'calc.py', startLine: 2 });
    expect(click(null, 'new', 18)).toMatchObject({ side: 'new', startLine: 18 });
    expect(click(null, 'old', 18)).toMatchObject({ side: 'old', startLine: 18 });
  });

  it('extends an old-side selection over context lines by their old numbers', () => {
    const removed = click(null, 'old', 2);
    // Line 4 is context: it extends the old side, by its old number.
    expect(click(removed, 'new', 4, true)).toMatchObject({ side: 'old', startLine: 2, endLine: 4 });
  });

  it('starts over on a line of the other side, or of another file', () => {
    const added = click(null, 'new', 2);
    expect(click(added, 'old', 2, true)).toMatchObject({ side: 'old', anchor: 2, endLine: 2 });
    expect(click(added, 'new', 1, true, notes)).toMatchObject({
      fileIndex: 1,
      path: 'notes.md',
      startLine: 1,
      endLine: 1,
    });
  });

  it('stops at the gap between two hunks: the server only anchors lines the diff shows', () => {
    const three = click(null, 'new', 3);
    expect(click(three, 'new', 16, true)).toMatchObject({ startLine: 3, endLine: 5 });
    const seventeen = click(null, 'new', 17);
    expect(click(seventeen, 'new', 4, true)).toMatchObject({ startLine: 15, endLine: 17 });
  });
});

describe('isSelected', () => {
  it('marks the lines of the selected side in the range, in the selected file only', () => {
    const range = click(click(null, 'new', 2), 'new', 4, true);
    const marked = calc.lines.filter((line) => isSelected(range, 0, line));
    expect(marked.map((l) => `${l.kind}${l.newLine}`)).toEqual(['+2', ' 3', ' 4']);
    expect(notes.lines.some((line) => isSelected(range, 1, line))).toBe(false);
    const old = click(click(null, 'old', 2), 'new', 3, true);
    expect(calc.lines.filter((line) => isSelected(old, 0, line)).map((l) => l.oldLine)).toEqual([
      2, 3,
    ]);
    expect(isSelected(null, 0, lineAt(calc, 'new', 3))).toBe(false);
  });
});

describe('placeText', () => {
  it('names a place as people read it', () => {
    expect(linesText(3, 3)).toBe('line 3');
    expect(linesText(3, 5)).toBe('lines 3–5');
    expect(placeText({ path: 'calc.py', side: 'new', startLine: 4, endLine: 6 })).toBe(
      'calc.py lines 4–6',
    );
    expect(placeText({ path: 'calc.py', side: 'old', startLine: 2, endLine: 2 })).toBe(
      'calc.py line 2 (old)',
    );
  });
});
