'use client';

import { useCallback, useEffect, useEffectEvent, useMemo, useReducer, useState } from 'react';
import type { DraftView, ThreadView } from '../../trpc/router-types';
import type { PatchFile } from '../patch-files';
import { reviewFiles, type DiffLine, type ReviewFile } from './diff-files';
import { DiffLineRow, type LineIntent } from './diff-line-row';
import { buildRows, rowKeyOfHash, type DiffRow } from './diff-rows';
import { DraftCard } from './draft-card';
import { FileHeaderRow } from './file-header-row';
import { isSelected, placeText } from './line-selection';
import { NewComment } from './new-comment';
import { nextStop, reviewKeyAction } from './review-keys';
import { noSelection, reduceSelection } from './selection-state';
import { ThreadCard, type ThreadRights } from './thread-card';
import { placeConversation } from './thread-placement';
import { ThreadsApart } from './threads-apart';
import { useWindowRows } from './use-window-rows';

const toggled = <T,>(set: ReadonlySet<T>, item: T, on: boolean): ReadonlySet<T> => {
  const next = new Set(set);
  if (on) next.add(item);
  else next.delete(item);
  return next;
};

/** Rough heights before a row has measured itself (px). */
const estimates: Readonly<Record<DiffRow['kind'], number>> = {
  file: 48,
  hunk: 26,
  line: 21,
  note: 32,
  thread: 180,
  draft: 120,
  composer: 170,
};

/**
 * The files view of the diff with the review conversation in it: every file's lines with both
 * numbers, threads under the lines they are about, the person's drafts marked "Draft", and a
 * comment box under the lines they select. Keyboard: `j`/`k` next/previous file or thread, `c`
 * comment on the selection, Escape to close or clear.
 */
export function ConversationView({
  taskId,
  sha256,
  diff,
  threads,
  drafts,
  rights,
  commentable,
  patchFiles,
  onOpenInEditor,
}: {
  readonly taskId: string;
  /** The hash of the diff shown: drafts are bound to it. */
  readonly sha256: string;
  readonly diff: string;
  readonly threads: readonly ThreadView[];
  readonly drafts: readonly DraftView[];
  readonly rights: ThreadRights;
  /** Whether new comments may be written here (the diff shown is the one under review). */
  readonly commentable: boolean;
  readonly patchFiles: readonly PatchFile[];
  readonly onOpenInEditor: (file: PatchFile) => void;
}) {
  const files = useMemo(() => reviewFiles(diff), [diff]);
  const placement = useMemo(
    () => placeConversation(files, sha256, threads, drafts),
    [files, sha256, threads, drafts],
  );
  const [{ selection, composer }, dispatch] = useReducer(reduceSelection, noSelection);
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(() => new Set());
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [replying, setReplying] = useState<ReadonlySet<string>>(() => new Set());
  const [editing, setEditing] = useState<ReadonlySet<string>>(() => new Set());
  // The row `j`/`k` last moved to, by key (indexes shift as threads come and go).
  const [current, setCurrent] = useState<string | null>(null);
  const canComment = rights.comment && commentable;

  const { rows, stops, indexOf } = useMemo(
    () => buildRows(files, placement, { collapsed, composer: canComment ? composer : null }),
    [files, placement, collapsed, composer, canComment],
  );
  const pinned = useMemo(
    () =>
      rows.flatMap((row, index) => {
        const busy =
          row.kind === 'composer' ||
          (row.kind === 'draft' && editing.has(row.draft.id)) ||
          (row.kind === 'thread' &&
            (replying.has(row.thread.id) ||
              (placement.replyDrafts.get(row.thread.id) ?? []).some((d) => editing.has(d.id))));
        return busy ? [index] : [];
      }),
    [rows, editing, replying, placement],
  );
  const { listRef, virtualizer, margin } = useWindowRows({
    count: rows.length,
    keyOf: useCallback((index: number) => rows[index]?.key ?? String(index), [rows]),
    estimate: useCallback((index: number) => estimates[rows[index]?.kind ?? 'line'], [rows]),
    pinned,
  });

  // One handler for every line (dispatch never changes), so the memoised line rows do not all
  // re-render when one line is clicked.
  const onLine = useCallback(
    (file: ReviewFile, line: DiffLine, extend: boolean, intent: LineIntent) =>
      dispatch({ type: 'line', file, line, extend, intent }),
    [],
  );

  const moveTo = useCallback(
    (index: number) => {
      const row = rows[index];
      if (row === undefined) return;
      setCurrent(row.key);
      virtualizer.scrollToIndex(index, { align: 'start' });
    },
    [rows, virtualizer],
  );
  // Focus the row moved to once it is rendered (it may be far down the windowed list).
  useEffect(() => {
    if (current === null) return;
    let frames = 0;
    let handle = 0;
    const focus = (): void => {
      const element = listRef.current?.querySelector<HTMLElement>(
        `[data-row-key="${CSS.escape(current)}"] [tabindex="-1"]`,
      );
      if (element !== null && element !== undefined) element.focus({ preventScroll: true });
      else if (frames++ < 30) handle = requestAnimationFrame(focus);
    };
    handle = requestAnimationFrame(focus);
    return () => cancelAnimationFrame(handle);
  }, [current, listRef]);

  // A link to a file or a thread of the review lands on it: the windowed list has no element for
  // a row off screen, so the browser cannot scroll to it by itself.
  const followLink = useEffectEvent(() => {
    const key = rowKeyOfHash(window.location.hash);
    const index = key === null ? undefined : indexOf.get(key);
    if (index !== undefined) moveTo(index);
  });
  useEffect(() => {
    // After the first frame: the list knows where it starts on the page by then.
    const frame = requestAnimationFrame(() => followLink());
    const onHashChange = (): void => followLink();
    window.addEventListener('hashchange', onHashChange);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('hashchange', onHashChange);
    };
  }, []);

  const onKeyDown = useEffectEvent((event: KeyboardEvent): void => {
    if (event.defaultPrevented) return;
    const action = reviewKeyAction(event);
    if (action === null) return;
    if (action === 'next' || action === 'previous') {
      const direction = action === 'next' ? 1 : -1;
      const at = current === null ? undefined : indexOf.get(current);
      // Without a current stop, start from the top of the screen.
      const from = at ?? (virtualizer.range?.startIndex ?? 0) - (direction === 1 ? 1 : 0);
      const target = nextStop(stops, from, direction);
      if (target === null) return;
      event.preventDefault();
      moveTo(target);
    } else if (action === 'comment') {
      if (selection === null || !canComment) return;
      event.preventDefault();
      dispatch({ type: 'comment' });
    } else {
      dispatch({ type: 'escape' });
    }
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent): void => onKeyDown(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  const renderRow = (row: DiffRow) => {
    switch (row.kind) {
      case 'file': {
        const patchFile = patchFiles[row.file.index];
        return (
          <FileHeaderRow
            file={row.file}
            collapsed={row.collapsed}
            threads={row.threads}
            current={current === row.key}
            onToggle={() => setCollapsed((set) => toggled(set, row.file.index, !row.collapsed))}
            onOpenInEditor={
              patchFile === undefined || patchFile.binary ? null : () => onOpenInEditor(patchFile)
            }
          />
        );
      }
      case 'hunk':
        return <div className="dl-hunk mono">{row.text}</div>;
      case 'note':
        return <p className="dl-note muted">{row.text}</p>;
      case 'line':
        return (
          <DiffLineRow
            file={row.file}
            line={row.line}
            selected={isSelected(selection, row.file.index, row.line)}
            threaded={row.threaded}
            canComment={canComment}
            onLine={onLine}
          />
        );
      case 'thread':
        return (
          <ThreadCard
            taskId={taskId}
            thread={row.thread}
            replyDrafts={placement.replyDrafts.get(row.thread.id) ?? []}
            rights={rights}
            expanded={expanded.has(row.thread.id)}
            onExpanded={(on) => setExpanded((set) => toggled(set, row.thread.id, on))}
            replying={replying.has(row.thread.id)}
            onReplying={(on) => setReplying((set) => toggled(set, row.thread.id, on))}
            editingDrafts={editing}
            onEditingDraft={(id, on) => setEditing((set) => toggled(set, id, on))}
            current={current === row.key}
          />
        );
      case 'draft':
        return (
          <DraftCard
            taskId={taskId}
            draft={row.draft}
            place={placeText({
              path: row.draft.path ?? '',
              side: row.draft.side ?? 'new',
              startLine: row.draft.startLine ?? 0,
              endLine: row.draft.endLine ?? 0,
            })}
            editing={editing.has(row.draft.id)}
            onEditing={(on) => setEditing((set) => toggled(set, row.draft.id, on))}
          />
        );
      case 'composer':
        return (
          <NewComment
            taskId={taskId}
            sha256={sha256}
            target={row.target}
            onClose={() => dispatch({ type: 'close' })}
          />
        );
    }
  };

  const items = virtualizer.getVirtualItems();
  return (
    <div className="conversation">
      <ThreadsApart
        taskId={taskId}
        placement={placement}
        rights={rights}
        expanded={expanded}
        onExpanded={(id, on) => setExpanded((set) => toggled(set, id, on))}
        replying={replying}
        onReplying={(id, on) => setReplying((set) => toggled(set, id, on))}
        editing={editing}
        onEditing={(id, on) => setEditing((set) => toggled(set, id, on))}
      />
      <nav aria-label="Files in this diff" className="conv-files">
        <ol className="file-list">
          {files.map((file) => (
            <li key={file.index}>
              <button
                type="button"
                className="link-button mono"
                onClick={() => {
                  const index = indexOf.get(`file:${file.index}`);
                  if (index !== undefined) moveTo(index);
                }}
              >
                {file.path}
              </button>{' '}
              <span className="muted">
                +{file.additions} −{file.deletions}
              </span>
            </li>
          ))}
        </ol>
      </nav>
      <p className="hint">
        Click a line number to select the line, shift-click another to select the lines between;{' '}
        {canComment ? (
          <>
            <kbd>c</kbd> or the <kbd>+</kbd> beside a line comments on them;{' '}
          </>
        ) : null}
        <kbd>j</kbd>/<kbd>k</kbd> go to the next/previous file or thread.
      </p>
      {selection === null ? null : (
        <p className="selection-line" role="status">
          Selected: <span className="mono">{placeText(selection)}</span>
        </p>
      )}
      <div
        ref={listRef}
        className="conv-list"
        style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
      >
        {items.map((item) => {
          const row = rows[item.index];
          if (row === undefined) return null;
          return (
            <div
              key={item.key}
              data-index={item.index}
              data-row-key={row.key}
              ref={virtualizer.measureElement}
              className={`conv-row conv-row-${row.kind}`}
              style={{ transform: `translateY(${item.start - margin}px)` }}
            >
              {renderRow(row)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
