'use client';

import { useEffect, useRef, useState } from 'react';

/**
 * A long id (a task's cuid) shortened for a table or a header: its first and last characters.
 * A cuid's head is its creation time, alike for ids made close together; its tail is random, so
 * head and tail together tell ids apart at a glance. The full id is the title (hover), what a
 * screen reader reads, what a selection copies, and what the copy button puts on the clipboard.
 */
export function ShortId({
  id,
  head = 4,
  tail = 6,
  what = 'id',
}: {
  readonly id: string;
  readonly head?: number;
  readonly tail?: number;
  /** Names the id in the copy button's label ("Copy task id …"). */
  readonly what?: string;
}) {
  const [note, setNote] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  const short = id.length <= head + tail + 1 ? id : `${id.slice(0, head)}…${id.slice(-tail)}`;

  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(id);
      setNote('Copied');
    } catch {
      setNote('Copy failed: select the id');
    }
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => setNote(null), 2000);
  }

  return (
    <span className="short-id">
      <code
        className="short-id-text"
        title={id}
        onCopy={(event) => {
          event.clipboardData.setData('text/plain', id);
          event.preventDefault();
        }}
      >
        <span aria-hidden="true">{short}</span>
        <span className="visually-hidden">{id}</span>
      </code>
      <button
        type="button"
        className="short-id-copy"
        aria-label={`Copy ${what} ${id}`}
        title={`Copy the full ${what}`}
        onClick={() => void copy()}
      >
        Copy
      </button>
      <span className="short-id-note" role="status">
        {note}
      </span>
    </span>
  );
}
