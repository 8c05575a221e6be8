import type { ThreadSide } from '../../trpc/router-types';
import { visibleLines } from '@/server/engine/diff';
import { numberOn, pathOn, sideOf, type DiffLine, type ReviewFile } from './diff-files';

/** Lines of one side of one file, picked in the files view to comment on. */
export interface LineSelection {
  readonly fileIndex: number;
  /** The file's path on `side` (what the comment's anchor names). */
  readonly path: string;
  readonly side: ThreadSide;
  /** The line the selection started at: shift-click extends from it. */
  readonly anchor: number;
  readonly startLine: number;
  readonly endLine: number;
}

/**
 * A click on a line's number: selects that line, or with `extend` (shift) stretches the selection
 * from its anchor to it. A selection stays on one side of one file: a context line has a number
 * on both sides and extends either; a removed line cannot extend a new-side selection (or an added
 * line an old-side one), so clicking it starts over there. The range stops where the diff stops
 * showing that side's lines (between two hunks), as the server only anchors lines it shows.
 */
export function selectLine(
  current: LineSelection | null,
  file: ReviewFile,
  line: DiffLine,
  extend: boolean,
): LineSelection | null {
  if (extend && current !== null && current.fileIndex === file.index) {
    const target = numberOn(line, current.side);
    if (target !== null) {
      const reach = reachable(file, current.side, current.anchor, target);
      return {
        ...current,
        startLine: Math.min(current.anchor, reach),
        endLine: Math.max(current.anchor, reach),
      };
    }
  }
  const side = sideOf(line);
  const number = numberOn(line, side);
  const path = pathOn(file, side);
  if (number === null || path === null) return null;
  return { fileIndex: file.index, path, side, anchor: number, startLine: number, endLine: number };
}

/** How far from `anchor` towards `target` the lines of `side` run without a gap. */
function reachable(file: ReviewFile, side: ThreadSide, anchor: number, target: number): number {
  const shown = new Set(visibleLines(file, side).map((visible) => visible.line));
  const step = target >= anchor ? 1 : -1;
  let reach = anchor;
  while (reach !== target && shown.has(reach + step)) reach += step;
  return reach;
}

/** Whether the line (in file `fileIndex`) is inside the selection. */
export function isSelected(
  selection: LineSelection | null,
  fileIndex: number,
  line: DiffLine,
): boolean {
  if (selection === null || selection.fileIndex !== fileIndex) return false;
  const number = numberOn(line, selection.side);
  return number !== null && number >= selection.startLine && number <= selection.endLine;
}

/** `line 3`, `lines 3–5`. */
export const linesText = (startLine: number, endLine: number): string =>
  startLine === endLine ? `line ${startLine}` : `lines ${startLine}–${endLine}`;

/** `calc.py lines 3–5`, with `(old)` for the baseline's side. */
export function placeText(place: {
  readonly path: string;
  readonly side: ThreadSide;
  readonly startLine: number;
  readonly endLine: number;
}): string {
  const where = `${place.path} ${linesText(place.startLine, place.endLine)}`;
  return place.side === 'old' ? `${where} (old)` : where;
}
