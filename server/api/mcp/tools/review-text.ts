import type { ReviewSummaryView, ThreadView } from '../../../reviews';

/**
 * How review threads read as text, for clients that only show a tool's text: where each thread
 * is, the code it is about and who said what (the structured result has every field).
 */

/** `calc.py:2-3 (new)`; one line is `calc.py:2 (new)`. */
export function threadPlace(thread: Pick<ThreadView, 'path' | 'side' | 'startLine' | 'endLine'>) {
  const lines =
    thread.startLine === thread.endLine
      ? `${thread.startLine}`
      : `${thread.startLine}-${thread.endLine}`;
  return `${thread.path}:${lines} (${thread.side})`;
}

const indent = (text: string, by: string): string =>
  text
    .split('\n')
    .map((line) => `${by}${line}`)
    .join('\n');

/** One thread in full: its place and id, the code lines (numbered), every comment with its author. */
export function renderThread(thread: ThreadView): string {
  const width = String(thread.startLine + Math.max(thread.lines.length - 1, 0)).length;
  const code = thread.lines.map(
    (line, i) => `    ${String(thread.startLine + i).padStart(width)} | ${line}`,
  );
  const comments = thread.comments.map(
    (c) =>
      `  ${c.author}${c.authorKind === 'person' ? '' : ` (${c.authorKind})`}:\n${indent(c.body, '    ')}`,
  );
  return [`${threadPlace(thread)} [thread ${thread.id}]`, ...code, ...comments].join('\n');
}

/** The first line of a comment, cut to `max` characters. */
function gist(body: string, max = 100): string {
  const first = body.trim().split('\n', 1)[0] ?? '';
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

/**
 * The task's review in a few lines, or null while there is nothing to say (no review yet and no
 * thread): the state and round, who requested changes, the summary, then each open thread in one
 * line with its first comment.
 */
export function reviewBrief(review: ReviewSummaryView): string | null {
  const quiet =
    review.state === 'none' &&
    review.openThreads.length === 0 &&
    review.resolvedThreads === 0 &&
    review.outdatedThreads === 0;
  if (quiet) return null;
  const lines = [`review: ${review.state} (round ${review.round} of ${review.maxRounds})`];
  if (review.changesRequestedBy.length > 0) {
    lines.push(`changes requested by: ${review.changesRequestedBy.join(', ')}`);
  }
  if (review.summary !== null) lines.push(`summary: ${gist(review.summary, 200)}`);
  lines.push(
    `threads: ${review.openThreads.length} open, ${review.resolvedThreads} resolved, ${review.outdatedThreads} outdated`,
  );
  for (const thread of review.openThreads) {
    const [first] = thread.comments;
    const more = thread.comments.length - 1;
    const said = first === undefined ? '' : ` ${first.author}: ${gist(first.body)}`;
    lines.push(
      `- ${threadPlace(thread)} [thread ${thread.id}]${said}${more > 0 ? ` (+${more} more)` : ''}`,
    );
  }
  if (review.openThreads.length > 0) {
    lines.push('(list_threads shows them in full; reply_to_thread answers one)');
  }
  return lines.join('\n');
}
