'use client';

import { useCallback, useEffect, useState } from 'react';
import { initialTab, isReviewLink, isTaskTab, type TaskTab } from './task-tabs';

/**
 * The selected tab, held in the address (`?tab=compare`) so a link or a reload opens the same
 * pane. The server renders the tab its query names; a link into the review (`#review-file-2`,
 * `#thread-…`) is only known in the browser, so it switches to the files once the page is there.
 */
export function useTaskTab(
  queryTab: string | null,
  underReview: boolean,
): [TaskTab, (tab: TaskTab) => void] {
  const [tab, setTab] = useState<TaskTab>(() => initialTab(queryTab, '', underReview));
  useEffect(() => {
    const follow = (): void => {
      if (isReviewLink(window.location.hash)) setTab('files');
    };
    // An address that names its tab keeps it; a review link without one opens the files.
    if (!isTaskTab(queryTab)) follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [queryTab]);
  const select = useCallback((next: TaskTab) => {
    setTab(next);
    const url = new URL(window.location.href);
    url.searchParams.set('tab', next);
    if (next !== 'files') url.hash = '';
    // Next's router keeps its state in step with a history.replaceState call whose state is
    // null (with its own state object it takes the call for one of its navigations).
    window.history.replaceState(null, '', url);
  }, []);
  return [tab, select];
}
