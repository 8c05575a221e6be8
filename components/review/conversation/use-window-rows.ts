'use client';

import { defaultRangeExtractor, useWindowVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';

/**
 * Windowing for the files view: the page scrolls as usual, and only the rows near the screen are
 * rendered (a 5,000-line diff with hundreds of threads renders a few dozen rows). Rows measure
 * themselves (threads and comment boxes have any height). `pinned` rows stay rendered wherever
 * the page is scrolled: a comment box being typed in keeps its text and its focus.
 */
export function useWindowRows({
  count,
  keyOf,
  estimate,
  pinned,
}: {
  readonly count: number;
  readonly keyOf: (index: number) => string;
  readonly estimate: (index: number) => number;
  readonly pinned: readonly number[];
}) {
  const listRef = useRef<HTMLDivElement>(null);
  // Where the list starts on the page: what the timeline and the banners above it take.
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list === null) return;
    const measure = (): void => {
      setMargin(Math.round(list.getBoundingClientRect().top + window.scrollY));
    };
    measure();
    // Anything above the list that grows or shrinks (the live timeline) changes the page's size.
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const shown = defaultRangeExtractor(range);
      if (pinned.length === 0) return shown;
      return [...new Set([...shown, ...pinned])].sort((a, b) => a - b);
    },
    [pinned],
  );
  const virtualizer = useWindowVirtualizer({
    count,
    estimateSize: estimate,
    getItemKey: keyOf,
    overscan: 20,
    scrollMargin: margin,
    // The same first window on the server and in the browser (hydration), whatever the scroll.
    initialOffset: 0,
    initialRect: { width: 1280, height: 900 },
    rangeExtractor,
    useFlushSync: false,
  });
  return { listRef, virtualizer, margin };
}
