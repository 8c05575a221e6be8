import { z } from 'zod';

/**
 * The review conversation's views, defined once (zod): the types in review-api.ts are `z.infer`
 * of these; tRPC checks its outputs with them, REST serves them, MCP describes them. Field names
 * are part of the REST contract.
 */

const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();

export const threadSides = ['new', 'old'] as const;
export const threadStatuses = ['open', 'resolved', 'outdated'] as const;
export const reviewVerdicts = ['comment', 'request_changes', 'approve'] as const;
/** person: a reviewer or author; agent: someone's token with the agent scope; fixer: the LLM. */
export const commentAuthorKinds = ['person', 'agent', 'fixer'] as const;

export const threadCommentViewSchema = z.object({
  id: z.string(),
  author: z.string().describe('who wrote it: a username, "name (token:<id>)" or "fixer:<name>"'),
  authorKind: z.enum(commentAuthorKinds),
  body: z.string().describe('Markdown'),
  createdAt: z.string(),
});

export const threadViewSchema = z.object({
  id: z.string(),
  status: z.enum(threadStatuses),
  /** Where the thread is now: the current diff, or (outdated) the diff it was last seen in. */
  path: z.string(),
  side: z.enum(threadSides).describe('new: lines of the changed file; old: of the baseline'),
  startLine: z.int(),
  endLine: z.int(),
  /** The anchored code, startLine..endLine. */
  lines: list(z.string()).describe('the code lines the thread is about'),
  diffSha256: z.string().describe('the diff the thread is anchored in'),
  writtenOn: z.object({
    sha256: z.string().describe('the diff the thread was written on'),
    checkpointSha: z.string(),
    path: z.string(),
    startLine: z.int(),
    endLine: z.int(),
  }),
  outdatedReason: z.string().nullable(),
  author: z.string(),
  resolvedBy: z.string().nullable(),
  createdAt: z.string(),
  comments: list(threadCommentViewSchema),
});

/** A comment the caller is writing, kept until their review is submitted. */
export const draftViewSchema = z.object({
  id: z.string(),
  diffSha256: z.string(),
  /** A reply to this thread; null: a new thread at path/side/lines. */
  threadId: z.string().nullable(),
  path: z.string().nullable(),
  side: z.enum(threadSides).nullable(),
  startLine: z.int().nullable(),
  endLine: z.int().nullable(),
  body: z.string(),
  updatedAt: z.string(),
});

export const reviewStates = [
  'none',
  'commented',
  'changes_requested',
  'approved',
  'rejected',
] as const;

/** The task view's `review`: where the conversation stands, and what is still open. */
export const reviewSummaryViewSchema = z.object({
  round: z.int().describe('review rounds (requests for changes) so far'),
  maxRounds: z.int(),
  state: z
    .enum(reviewStates)
    .describe('changes_requested while any reviewer request for changes stands'),
  summary: z.string().nullable().describe("the newest person's review summary"),
  /** Reviewers whose request for changes stands (only they, or an admin, clear it). */
  changesRequestedBy: list(z.string()),
  openThreads: list(threadViewSchema),
  outdatedThreads: z.int(),
  resolvedThreads: z.int(),
});

/** Everything about a task's review conversation (`GET /api/v1/tasks/{id}/threads`). */
export const threadListViewSchema = z.object({
  diffSha256: z.string().nullable().describe('the diff under review'),
  threads: list(threadViewSchema),
});

export const reviewHistoryItemSchema = z.object({
  id: z.string(),
  verdict: z.string(),
  by: z.string(),
  summary: z.string().nullable(),
  sha256: z.string(),
  at: z.string(),
  /** For a request for changes: whether it still stands, or who cleared it and how. */
  cleared: z
    .object({ by: z.string(), how: z.string(), reason: z.string().nullable(), at: z.string() })
    .nullable(),
});
