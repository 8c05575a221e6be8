'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';

/**
 * Windowing for the matrix's own scroll box: only the rows near its visible part are rendered
 * (3,000 rows render a few dozen). Rows have one fixed height, so nothing is measured.
 */
export function useMatrixWindow({
  count,
  keyOf,
  rowHeight,
}: {
  readonly count: number;
  readonly keyOf: (index: number) => string;
  readonly rowHeight: number;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The compiler leaves this hook unmemoized (the virtualizer's functions change as it scrolls);
  // its caller re-renders on every scroll step anyway, which is what windowing needs.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    getItemKey: keyOf,
    overscan: 8,
    // The same first window on the server and in the browser (hydration).
    initialRect: { width: 1280, height: 600 },
    useFlushSync: false,
  });
  return { scrollRef, virtualizer };
}
