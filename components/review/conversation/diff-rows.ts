import type { DraftView, ThreadSide, ThreadView } from '../../trpc/router-types';
import { hunkHeader, type DiffLine, type ReviewFile } from './diff-files';
import { placeKey, type Placement } from './thread-placement';

/** Where a new comment goes: lines of one side of one file. */
export interface CommentTarget {
  readonly fileIndex: number;
  readonly path: string;
  readonly side: ThreadSide;
  readonly startLine: number;
  readonly endLine: number;
}

/**
 * One row of the files view, flat so that a long diff can be windowed: only the rows on screen
 * are rendered. `key` is stable across re-renders (a row keeps its element and its height).
 */
export type DiffRow =
  | {
      readonly kind: 'file';
      readonly key: string;
      readonly file: ReviewFile;
      readonly collapsed: boolean;
      /** Threads placed in this file (shown in its header, also when collapsed). */
      readonly threads: number;
    }
  | {
      readonly kind: 'hunk';
      readonly key: string;
      readonly fileIndex: number;
      readonly text: string;
    }
  | {
      readonly kind: 'line';
      readonly key: string;
      readonly file: ReviewFile;
      readonly line: DiffLine;
      /** An open thread is about this line. */
      readonly threaded: boolean;
    }
  | {
      readonly kind: 'note';
      readonly key: string;
      readonly fileIndex: number;
      readonly text: string;
    }
  | {
      readonly kind: 'thread';
      readonly key: string;
      readonly fileIndex: number;
      readonly thread: ThreadView;
    }
  | {
      readonly kind: 'draft';
      readonly key: string;
      readonly fileIndex: number;
      readonly draft: DraftView;
    }
  | {
      readonly kind: 'composer';
      readonly key: string;
      readonly fileIndex: number;
      readonly target: CommentTarget;
    };

export interface DiffRows {
  readonly rows: readonly DiffRow[];
  /** Rows `j`/`k` move between, in order: each file's header and each thread. */
  readonly stops: readonly number[];
  /** A row's index by its key. */
  readonly indexOf: ReadonlyMap<string, number>;
}

export const composerKey = 'composer';

/**
 * The row a link to the review lands on: `#review-file-2` (a file's header), `#thread-<id>` (a
 * thread). Null for any other hash.
 */
export function rowKeyOfHash(hash: string): string | null {
  const file = /^#review-file-(\d+)$/.exec(hash);
  if (file !== null) return `file:${file[1] ?? ''}`;
  const thread = /^#thread-([a-z0-9]{1,64})$/.exec(hash);
  return thread === null ? null : `thread:${thread[1] ?? ''}`;
}

/**
 * The files view as rows: per file its header, then (unless collapsed) its hunks' lines, and under
 * each line the threads, the drafts and the open comment box that end at it.
 */
export function buildRows(
  files: readonly ReviewFile[],
  placement: Placement,
  options: { readonly collapsed: ReadonlySet<number>; readonly composer: CommentTarget | null },
): DiffRows {
  const rows: DiffRow[] = [];
  const stops: number[] = [];
  const { composer } = options;
  const threadCounts = countByFile(placement);
  for (const file of files) {
    stops.push(rows.length);
    const collapsed = options.collapsed.has(file.index);
    rows.push({
      kind: 'file',
      key: `file:${file.index}`,
      file,
      collapsed,
      threads: threadCounts.get(file.index) ?? 0,
    });
    if (collapsed) continue;
    if (file.binary) {
      rows.push(note(file, 'binary', 'Binary file: no lines to show.'));
      continue;
    }
    if (file.lines.length === 0) {
      rows.push(note(file, 'empty', `No changed lines (${file.status}).`));
      continue;
    }
    let hunk = -1;
    for (const [i, line] of file.lines.entries()) {
      if (line.hunk !== hunk) {
        hunk = line.hunk;
        rows.push({
          kind: 'hunk',
          key: `hunk:${file.index}:${hunk}`,
          fileIndex: file.index,
          text: hunkHeader(file, hunk),
        });
      }
      const sides = endsHere(line);
      const threaded = sides.some(([side, number]) =>
        placement.threadLines.has(placeKey(file.index, side, number)),
      );
      rows.push({ kind: 'line', key: `line:${file.index}:${i}`, file, line, threaded });
      for (const [side, number] of sides) {
        const key = placeKey(file.index, side, number);
        for (const thread of placement.threadsAt.get(key) ?? []) {
          stops.push(rows.length);
          rows.push({
            kind: 'thread',
            key: `thread:${thread.id}`,
            fileIndex: file.index,
            thread,
          });
        }
        for (const draft of placement.draftsAt.get(key) ?? []) {
          rows.push({ kind: 'draft', key: `draft:${draft.id}`, fileIndex: file.index, draft });
        }
        if (
          composer !== null &&
          composer.fileIndex === file.index &&
          composer.side === side &&
          composer.endLine === number
        ) {
          rows.push({
            kind: 'composer',
            key: composerKey,
            fileIndex: file.index,
            target: composer,
          });
        }
      }
    }
  }
  return { rows, stops, indexOf: new Map(rows.map((row, index) => [row.key, index])) };
}

/** The side numbers a line ends: old first, then new (a context line has both). */
function endsHere(line: DiffLine): [ThreadSide, number][] {
  if (line.kind === '+') return [['new', line.newLine]];
  if (line.kind === '-') return [['old', line.oldLine]];
  return [
    ['old', line.oldLine],
    ['new', line.newLine],
  ];
}

/** Placed threads per file index (a place key starts with its file's index). */
function countByFile(placement: Placement): ReadonlyMap<number, number> {
  const counts = new Map<number, number>();
  for (const [key, threads] of placement.threadsAt) {
    const fileIndex = Number(key.slice(0, key.indexOf(':')));
    counts.set(fileIndex, (counts.get(fileIndex) ?? 0) + threads.length);
  }
  return counts;
}

const note = (file: ReviewFile, what: string, text: string): DiffRow => ({
  kind: 'note',
  key: `${what}:${file.index}`,
  fileIndex: file.index,
  text,
});
