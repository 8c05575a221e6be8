import { memo, type MouseEvent } from 'react';
import { numberOn, pathOn, sideOf, type DiffLine, type ReviewFile } from './diff-files';

/** What a click on a line asks for: select it (shift: extend), or open a comment box on it. */
export type LineIntent = 'select' | 'comment';

export type OnLine = (
  file: ReviewFile,
  line: DiffLine,
  extend: boolean,
  intent: LineIntent,
) => void;

const kindClass = { '+': 'add', '-': 'del', ' ': 'ctx' } as const;
const kindWord = { '+': 'added', '-': 'removed', ' ': null } as const;

/**
 * One line of the diff: old and new numbers, the "+" that comments on it (shown on hover or
 * focus), and its text. The number of the side a comment on it belongs to is a button: a click
 * selects the line, a shift-click extends the selection.
 */
export const DiffLineRow = memo(function DiffLineRow({
  file,
  line,
  selected,
  threaded,
  canComment,
  onLine,
}: {
  readonly file: ReviewFile;
  readonly line: DiffLine;
  readonly selected: boolean;
  /** An open thread is about this line. */
  readonly threaded: boolean;
  readonly canComment: boolean;
  readonly onLine: OnLine;
}) {
  const side = sideOf(line);
  const number = numberOn(line, side) ?? 0;
  const path = pathOn(file, side) ?? file.path;
  const name = side === 'new' ? `Line ${number} of ${path}` : `Old line ${number} of ${path}`;
  const click = (intent: LineIntent) => (event: MouseEvent) => {
    // A shift-click selects lines, not the text between two clicks.
    if (event.shiftKey) window.getSelection()?.removeAllRanges();
    onLine(file, line, event.shiftKey, intent);
  };
  const selectButton = (
    <button
      type="button"
      className="dl-select"
      aria-label={name}
      aria-pressed={selected}
      onClick={click('select')}
    >
      {number}
    </button>
  );
  const word = kindWord[line.kind];
  return (
    <div
      className={`dl dl-${kindClass[line.kind]}${selected ? ' dl-selected' : ''}${threaded ? ' dl-threaded' : ''}`}
      data-side={side}
      data-line={number}
    >
      <span className="dl-num dl-num-old">
        {line.kind === '-' ? selectButton : line.kind === ' ' ? line.oldLine : null}
      </span>
      <span className="dl-num dl-num-new">{line.kind === '-' ? null : selectButton}</span>
      <span className="dl-gutter">
        {canComment ? (
          <button
            type="button"
            className="dl-plus"
            tabIndex={-1}
            aria-label={`Comment on ${side === 'new' ? 'line' : 'old line'} ${number} of ${path}`}
            onClick={click('comment')}
          >
            +
          </button>
        ) : null}
      </span>
      <span className="dl-sign" aria-hidden="true">
        {line.kind}
      </span>
      <span className="dl-code">
        {word === null ? null : <span className="visually-hidden">{word}: </span>}
        {line.text}
      </span>
    </div>
  );
});
