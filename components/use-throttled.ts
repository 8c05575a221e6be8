'use client';

import { useCallback, useEffect, useRef } from 'react';

/**
 * A stable function that calls `action` at most once per `ms`, at the end of the interval (a burst
 * of events, such as a replay, causes one refetch, not hundreds).
 */
export function useTrailingThrottle(action: () => void, ms: number): () => void {
  const latest = useRef(action);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    latest.current = action;
  });
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(() => {
    if (timer.current !== null) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      latest.current();
    }, ms);
  }, [ms]);
}
