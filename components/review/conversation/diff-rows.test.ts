import { describe, expect, it } from 'vitest';
import { reviewFiles } from './diff-files';
import { buildRows, rowKeyOfHash, type DiffRow } from './diff-rows';
import { placeConversation } from './thread-placement';
import { draft, patch, sha, thread } from './test-support/conversation-fixtures';

const files = reviewFiles(patch);

/** A row in a few characters: `F0`, `@`, `+2`, `-18`, ` 3`, `T:id`, `D:id`, `C`. */
function brief(row: DiffRow): string {
  switch (row.kind) {
    case 'file':
      return `F${row.file.index}${row.collapsed ? '(collapsed)' : ''}`;
    case 'hunk':
      return '@';
    case 'line':
      return `${row.line.kind}${row.line.kind === '-' ? row.line.oldLine : row.line.newLine}`;
    case 'note':
      return 'N';
    case 'thread':
      return `T:${row.thread.id}`;
    case 'draft':
      return `D:${row.draft.id}`;
    case 'composer':
      return 'C';
  }
}

describe('buildRows', () => {
  const placement = placeConversation(
    files,
    sha,
    [thread(), thread({ id: 'old3', side: 'old', startLine: 3, endLine: 3 })],
    [draft({ startLine: 5, endLine: 5 })],
  );

  it('lays out files, hunks and lines, with threads, drafts and the comment box under their line', () => {
    const { rows, stops, indexOf } = buildRows(files, placement, {
      collapsed: new Set(),
      composer: { fileIndex: 0, path: 'calc.py', side: 'new', startLine: 4, endLine: 5 },
    });
    expect(rows.map(brief)).toEqual([
      'F0',
      '@',
      ' 1',
      '-2',
      '+2',
      ' 3',
      // A context line ends old-side ranges and new-side ranges: old ones first.
      'T:old3',
      ' 4',
      ' 5',
      'T:thread1',
      'D:draft1',
      'C',
      '@',
      ' 15',
      ' 16',
      ' 17',
      '-18',
      '+18',
      'F1',
      '@',
      '+1',
      '+2',
    ]);
    // j/k stop at each file and each thread, in order.
    expect(stops.map((i) => brief(rows[i]!))).toEqual(['F0', 'T:old3', 'T:thread1', 'F1']);
    expect(indexOf.get('thread:thread1')).toBe(9);
    // Lines an open thread is about are marked: new 3–5 (thread1), old 3 (old3).
    const threaded = rows.flatMap((row) =>
      row.kind === 'line' && row.threaded ? [brief(row)] : [],
    );
    expect(threaded).toEqual([' 3', ' 4', ' 5']);
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length);
  });

  it('shows a collapsed file as its header only, still counting its threads', () => {
    const { rows, stops } = buildRows(files, placement, {
      collapsed: new Set([0]),
      composer: null,
    });
    expect(rows.map(brief)).toEqual(['F0(collapsed)', 'F1', '@', '+1', '+2']);
    expect(rows[0]).toMatchObject({ kind: 'file', threads: 2 });
    expect(stops).toEqual([0, 1]);
  });

  it('says why a file has no lines', () => {
    const renamed = reviewFiles(
      [
        'diff --git a/old.txt b/new.txt',
        'similarity index 100%',
        'rename from old.txt',
        'rename to new.txt',
        'diff --git a/logo.png b/logo.png',
        'new file mode 100644',
        'index 0000000..1111111',
        'Binary files /dev/null and b/logo.png differ',
        '',
      ].join('\n'),
    );
    const { rows } = buildRows(renamed, placeConversation(renamed, sha, [], []), {
      collapsed: new Set(),
      composer: null,
    });
    expect(rows.map((row) => (row.kind === 'note' ? row.text : brief(row)))).toEqual([
      'F0',
      'No changed lines (renamed).',
      'F1',
      'Binary file: no lines to show.',
    ]);
  });
});

describe('rowKeyOfHash', () => {
  it('reads links to a file or a thread of the review, and nothing else', () => {
    expect(rowKeyOfHash('#review-file-0')).toBe('file:0');
    expect(rowKeyOfHash('#review-file-12')).toBe('file:12');
    expect(rowKeyOfHash('#thread-cmxb8gcpr001ibt7db8ondq28')).toBe(
      'thread:cmxb8gcpr001ibt7db8ondq28',
    );
    for (const hash of [
      '',
      '#',
      '#review-file-',
      '#review-file-x',
      '#thread-',
      '#thread-A"]',
      '#timeline-heading',
    ]) {
      expect(rowKeyOfHash(hash)).toBeNull();
    }
  });
});
