// A review thread as the loop carries it: in a review round's request to the fixer and in the
// `task.changes_requested` event. A leaf, so the events need not import the fixer's port (which
// names the events' run summary).

/** One comment of a review thread, as a fixer reads it. */
export interface ThreadComment {
  readonly author: string;
  /** Markdown. */
  readonly body: string;
}

/**
 * A reviewer's open thread on the diff under review: where it is (the lines of the new or old
 * side of the diff baseline..checkpoint), the code it is anchored to, and what was said.
 */
export interface ReviewThreadBrief {
  readonly id: string;
  readonly path: string;
  readonly side: 'new' | 'old';
  readonly startLine: number;
  readonly endLine: number;
  /** The anchored code lines' text, startLine..endLine. */
  readonly lines: readonly string[];
  readonly comments: readonly ThreadComment[];
}
