'use client';

import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { isSubmitShortcut } from './review-keys';

/**
 * A comment box: a labelled textarea, its submit button and Cancel. Ctrl+Enter (Cmd+Enter)
 * submits; Escape cancels. The server's refusal, if any, is shown under it.
 */
export function CommentForm({
  label,
  submitLabel,
  initialBody = '',
  busy,
  error,
  autoFocus = true,
  onSubmit,
  onCancel,
}: {
  /** The textarea's accessible name, e.g. "Comment on calc.py lines 3–5". */
  readonly label: string;
  readonly submitLabel: string;
  readonly initialBody?: string;
  readonly busy: boolean;
  readonly error: string | null;
  readonly autoFocus?: boolean;
  readonly onSubmit: (body: string) => void;
  readonly onCancel: () => void;
}) {
  const id = useId();
  const [body, setBody] = useState(initialBody);
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    // Into view without scrolling the page: the windowed list has already put it on screen.
    if (autoFocus) field.current?.focus({ preventScroll: true });
  }, [autoFocus]);
  const empty = body.trim() === '';
  const submit = (): void => {
    if (!empty && !busy) onSubmit(body);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (isSubmitShortcut(event)) {
      event.preventDefault();
      submit();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    }
  };
  return (
    <form
      className="comment-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <textarea
        id={id}
        ref={field}
        rows={3}
        maxLength={20_000}
        value={body}
        placeholder={`Markdown · Ctrl+Enter: ${submitLabel}`}
        onChange={(event) => setBody(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="comment-form-actions">
        <button type="submit" className="primary" disabled={busy || empty}>
          {submitLabel}
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
      {error === null ? null : (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
