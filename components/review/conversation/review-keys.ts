/**
 * The files view's keyboard: `j`/`k` move to the next/previous file or thread, `c` comments on
 * the selected lines, Escape closes the comment box or clears the selection. Keys typed into a
 * field are never taken, but Ctrl+Enter (Cmd+Enter), which submits the field's form.
 */

export type ReviewKeyAction = 'next' | 'previous' | 'comment' | 'escape';

/** What a keydown carries that matters here (a KeyboardEvent is one). */
export interface KeyPress {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly target:
    EventTarget | { readonly tagName?: string; readonly isContentEditable?: boolean } | null;
}

const typingTags = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** Whether the key goes into a field the person is typing in. */
export function isTyping(target: KeyPress['target']): boolean {
  if (target === null || typeof target !== 'object') return false;
  const element = target as { readonly tagName?: unknown; readonly isContentEditable?: unknown };
  return (
    (typeof element.tagName === 'string' && typingTags.has(element.tagName.toUpperCase())) ||
    element.isContentEditable === true
  );
}

/** Ctrl+Enter (or Cmd+Enter): submits the comment box or the review summary it is typed in. */
export const isSubmitShortcut = (press: Pick<KeyPress, 'key' | 'ctrlKey' | 'metaKey'>): boolean =>
  press.key === 'Enter' && (press.ctrlKey || press.metaKey);

/** The files view's action for a key pressed outside any field, or null (left to the page). */
export function reviewKeyAction(press: KeyPress): ReviewKeyAction | null {
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  if (isTyping(press.target)) return null;
  switch (press.key) {
    case 'j':
      return 'next';
    case 'k':
      return 'previous';
    case 'c':
      return 'comment';
    case 'Escape':
      return 'escape';
    default:
      return null;
  }
}

/**
 * The stop (a row index) `j` (direction 1) or `k` (-1) moves to from `current` (null: none yet,
 * so `j` goes to the first and `k` to the last), or null at either end.
 */
export function nextStop(
  stops: readonly number[],
  current: number | null,
  direction: 1 | -1,
): number | null {
  if (current === null) return (direction === 1 ? stops[0] : stops.at(-1)) ?? null;
  if (direction === 1) return stops.find((stop) => stop > current) ?? null;
  return stops.findLast((stop) => stop < current) ?? null;
}
