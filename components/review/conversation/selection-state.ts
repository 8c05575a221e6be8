import type { DiffLine, ReviewFile } from './diff-files';
import type { CommentTarget } from './diff-rows';
import { isSelected, selectLine, type LineSelection } from './line-selection';

/** The lines picked in the files view, and the comment box open under them (if any). */
export interface SelectionState {
  readonly selection: LineSelection | null;
  readonly composer: CommentTarget | null;
}

export type SelectionAction =
  /** A click on a line's number (`select`) or its "+" (`comment`); shift extends. */
  | {
      readonly type: 'line';
      readonly file: ReviewFile;
      readonly line: DiffLine;
      readonly extend: boolean;
      readonly intent: 'select' | 'comment';
    }
  /** `c`: a comment box under the selected lines. */
  | { readonly type: 'comment' }
  /** The comment box was saved or cancelled. */
  | { readonly type: 'close' }
  /** Escape: close the comment box, or else clear the selection. */
  | { readonly type: 'escape' };

export const noSelection: SelectionState = { selection: null, composer: null };

export const targetOf = (selection: LineSelection): CommentTarget => ({
  fileIndex: selection.fileIndex,
  path: selection.path,
  side: selection.side,
  startLine: selection.startLine,
  endLine: selection.endLine,
});

/**
 * The "+" of a line inside the selection comments on the whole selection (select 3, shift-click
 * 5, then "+" on 4: lines 3–5); on any other line it selects that line (or extends, with shift)
 * and comments on the result.
 */
export function reduceSelection(state: SelectionState, action: SelectionAction): SelectionState {
  switch (action.type) {
    case 'line': {
      const keep =
        action.intent === 'comment' &&
        !action.extend &&
        isSelected(state.selection, action.file.index, action.line);
      const selection = keep
        ? state.selection
        : selectLine(state.selection, action.file, action.line, action.extend);
      if (action.intent === 'select') return { ...state, selection };
      return { selection, composer: selection === null ? state.composer : targetOf(selection) };
    }
    case 'comment':
      return state.selection === null ? state : { ...state, composer: targetOf(state.selection) };
    case 'close':
      return state.composer === null ? state : { ...state, composer: null };
    case 'escape':
      if (state.composer !== null) return { ...state, composer: null };
      return state.selection === null ? state : noSelection;
  }
}
