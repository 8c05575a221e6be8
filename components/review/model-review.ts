import type { TaskView } from '../trpc/router-types';

export type ReviewComment = TaskView['reviewComments'][number];

const words: ReadonlyMap<string, string> = new Map([
  ['looks_good', 'looks good'],
  ['concerns', 'concerns'],
  ['unsure', 'unsure'],
]);

/** A reviewer model's verdict in words; one this page does not know is shown as sent. */
export const verdictWord = (verdict: string): string =>
  words.get(verdict) ?? verdict.replaceAll('_', ' ');

/** The icon and colour class of a verdict (the word is always shown next to it). */
export const verdictTone = (verdict: string): 'good' | 'concerns' | 'unsure' =>
  verdict === 'looks_good' ? 'good' : verdict === 'concerns' ? 'concerns' : 'unsure';

/** The comments on one diff: those on earlier diffs no longer apply to what is reviewed. */
export const commentsOn = (
  comments: readonly ReviewComment[],
  sha256: string,
): readonly ReviewComment[] => comments.filter((comment) => comment.diffSha256 === sha256);
