/**
 * Moving review threads onto a new checkpoint's diff. A thread is anchored on lines of one side of
 * one file as the diff showed them; when the next checkpoint's diff is put up, the thread follows
 * the same code (same text) to wherever it now is, or becomes outdated when that code is gone.
 * Pure, importing only the parser: the browser reads it through `server/engine/diff.ts`.
 */

import { parseDiff, type DiffFile } from './git-diff';

/** 'new': the checkpoint's side of the diff (context and added lines); 'old': the baseline's. */
export type ThreadSide = 'new' | 'old';

export interface ThreadAnchor {
  /** The file's path on that side (the new path for 'new', the old path for 'old'). */
  readonly path: string;
  readonly side: ThreadSide;
  /** 1-based, inclusive, in line numbers of that side's file. */
  readonly startLine: number;
  readonly endLine: number;
  /** The anchored code lines' text, as written when the thread was (endLine-startLine+1 of them). */
  readonly lines: readonly string[];
}

export type Reanchored =
  /** At the same or a new place; `anchor.lines` is the thread's own text, unchanged. */
  | { readonly kind: 'moved'; readonly anchor: ThreadAnchor }
  | { readonly kind: 'outdated'; readonly reason: string };

export interface VisibleLine {
  readonly line: number;
  readonly text: string;
}

const filesOf = (diff: string | readonly DiffFile[]): readonly DiffFile[] =>
  typeof diff === 'string' ? parseDiff(diff) : diff;

/**
 * The lines of one side of a file as the diff shows them, in order: context and added lines for
 * 'new' (numbered in the new file), context and removed lines for 'old' (in the old file).
 */
export function visibleLines(file: DiffFile, side: ThreadSide): readonly VisibleLine[] {
  const hidden = side === 'new' ? '-' : '+';
  return file.lines
    .filter((line) => line.kind !== hidden)
    .map((line) => ({ line: side === 'new' ? line.newLine : line.oldLine, text: line.text }));
}

/** The file whose `side` is at `path`, exactly (no rename is followed). */
const fileAt = (files: readonly DiffFile[], path: string, side: ThreadSide): DiffFile | undefined =>
  files.find((file) => (side === 'new' ? file.newPath : file.oldPath) === path);

/**
 * The text of lines `startLine..endLine` on `side` of the diff's file at `path`, or null when any
 * of them is not shown in the diff (or the range is empty, or the file is absent or binary). Used
 * to capture the anchored lines when a comment is written. The text is as the diff has it (a CRLF
 * file's `\r` included).
 */
export function anchoredText(
  diff: string | readonly DiffFile[],
  path: string,
  side: ThreadSide,
  startLine: number,
  endLine: number,
): readonly string[] | null {
  if (!Number.isInteger(startLine) || !Number.isInteger(endLine)) return null;
  if (startLine < 1 || endLine < startLine) return null;
  const file = fileAt(filesOf(diff), path, side);
  if (file === undefined || file.binary) return null;
  const byLine = new Map(visibleLines(file, side).map((line) => [line.line, line.text]));
  const texts: string[] = [];
  for (let line = startLine; line <= endLine; line += 1) {
    const text = byLine.get(line);
    if (text === undefined) return null;
    texts.push(text);
  }
  return texts;
}

/**
 * Trailing spaces, tabs and `\r` only: a CRLF checkout or an editor trimming line ends must not
 * outdate a thread, but any other change to the code it was written on must.
 */
const sameCode = (a: string, b: string): boolean =>
  a.replace(/[ \t\r]+$/, '') === b.replace(/[ \t\r]+$/, '');

const outdated = (reason: string): Reanchored => ({ kind: 'outdated', reason });

/**
 * Where the thread's file is in the new diff, and the path the thread takes there. A 'new' side
 * thread follows a rename (its old file now reads under another name); an 'old' side thread is on
 * the baseline, whose paths do not move.
 */
function findFile(
  files: readonly DiffFile[],
  anchor: ThreadAnchor,
): { file: DiffFile; path: string } | { reason: string } {
  const same = fileAt(files, anchor.path, anchor.side);
  if (same !== undefined) return { file: same, path: anchor.path };
  if (anchor.side === 'new') {
    const from = files.filter((file) => file.oldPath === anchor.path);
    // A rename is the same file under a new name; a copy only when nothing was renamed.
    const moved =
      from.find((file) => file.status === 'renamed' && file.newPath !== null) ??
      from.find((file) => file.status === 'copied' && file.newPath !== null);
    if (moved?.newPath != null) return { file: moved, path: moved.newPath };
    if (from.some((file) => file.newPath === null)) return { reason: 'the file was deleted' };
  }
  return { reason: 'the file is no longer changed' };
}

/**
 * Moves a thread onto a new diff. The anchored text must appear, exactly (but for trailing
 * whitespace), as consecutive lines of the same side of the same file, numbered consecutively:
 * lines that follow each other in the diff but sit in two hunks have unseen code between them, so
 * they are not the code the thread was written on. Of several such places, the nearest to the old
 * start wins (the earlier on a tie): the code most likely only moved by the lines inserted or
 * removed above it, and a duplicate further away is other code that reads the same. Nothing else
 * is fuzzy: an edited line is no longer the code the comment was about, so the thread is outdated.
 */
export function reanchor(anchor: ThreadAnchor, newDiff: string | readonly DiffFile[]): Reanchored {
  const found = findFile(filesOf(newDiff), anchor);
  if ('reason' in found) return outdated(found.reason);
  if (found.file.binary) return outdated('the file is binary');
  const wanted = anchor.lines;
  if (wanted.length === 0) return outdated('the thread has no anchored code');

  const visible = visibleLines(found.file, anchor.side);
  let best: number | null = null;
  for (let i = 0; i + wanted.length <= visible.length; i += 1) {
    const first = visible[i];
    if (first === undefined) break;
    const matches = wanted.every((text, k) => {
      const line = visible[i + k];
      return line !== undefined && line.line === first.line + k && sameCode(line.text, text);
    });
    if (!matches) continue;
    // Visible lines are in ascending order, so on a tie the earlier one is kept.
    const distance = Math.abs(first.line - anchor.startLine);
    if (best === null || distance < Math.abs(best - anchor.startLine)) best = first.line;
  }
  if (best === null) return outdated('the code it was written on is no longer in the diff');
  return {
    kind: 'moved',
    anchor: {
      path: found.path,
      side: anchor.side,
      startLine: best,
      endLine: best + wanted.length - 1,
      lines: anchor.lines,
    },
  };
}
