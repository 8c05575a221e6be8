import type { ReactNode } from 'react';
import { plural } from '../format';

/** The last lines a run printed, folded away until the reader opens them. */
export function OutputTail({
  text,
  label = 'Output',
}: {
  readonly text: string;
  readonly label?: ReactNode;
}) {
  const lines = text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
  return (
    <details className="output-tail">
      <summary>
        {label} <span className="muted">({lines === 0 ? 'empty' : plural(lines, 'line')})</span>
      </summary>
      {/* Focusable, so the keyboard can scroll a long tail. */}
      <pre tabIndex={0}>{text === '' ? '(no output)' : text}</pre>
    </details>
  );
}
