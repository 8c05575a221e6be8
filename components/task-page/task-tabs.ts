/** The panes of a task's page, in order: GitHub's pull request tabs, Gerrit's change screen. */
export const taskTabs = ['conversation', 'compare', 'files'] as const;

export type TaskTab = (typeof taskTabs)[number];

export const tabLabels: Record<TaskTab, string> = {
  conversation: 'Conversation',
  compare: 'Compare',
  files: 'Files changed',
};

export function isTaskTab(value: unknown): value is TaskTab {
  return typeof value === 'string' && (taskTabs as readonly string[]).includes(value);
}

/**
 * The pane a page opens on: the one its `?tab=` names; else, for a link into the review (a file
 * or a thread of the diff), the files; else the files when a diff is up for review, since that is
 * what a reviewer comes for; else the conversation (the timeline of a task still at work).
 */
export function initialTab(
  query: string | null | undefined,
  hash: string,
  underReview: boolean,
): TaskTab {
  if (isTaskTab(query)) return query;
  if (isReviewLink(hash)) return 'files';
  return underReview ? 'files' : 'conversation';
}

/** A link to a file or a thread of the diff under review (see `rowKeyOfHash`). */
export function isReviewLink(hash: string): boolean {
  return /^#(review-file-|thread-)/.test(hash);
}

/** The tab after `tab` when an arrow, Home or End key is pressed in the tab list (WAI-ARIA). */
export function tabAfterKey(tab: TaskTab, key: string): TaskTab | null {
  const index = taskTabs.indexOf(tab);
  const last = taskTabs.length - 1;
  switch (key) {
    case 'ArrowRight':
      return taskTabs[index === last ? 0 : index + 1] ?? null;
    case 'ArrowLeft':
      return taskTabs[index === 0 ? last : index - 1] ?? null;
    case 'Home':
      return taskTabs[0];
    case 'End':
      return taskTabs[last] ?? null;
    default:
      return null;
  }
}
