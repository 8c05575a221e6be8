import type { z } from 'zod';
import type { Actor } from '../auth/actor';
import type {
  draftViewSchema,
  reviewHistoryItemSchema,
  reviewSummaryViewSchema,
  reviewVerdicts,
  threadListViewSchema,
  threadSides,
  threadViewSchema,
} from './review-view-schema';

/** What `z.infer` gives, with every field and array read-only. */
type ReadonlyView<T> = T extends readonly (infer E)[]
  ? readonly ReadonlyView<E>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadonlyView<T[K]> }
    : T;

export type ThreadView = ReadonlyView<z.infer<typeof threadViewSchema>>;
export type DraftView = ReadonlyView<z.infer<typeof draftViewSchema>>;
export type ReviewSummaryView = ReadonlyView<z.infer<typeof reviewSummaryViewSchema>>;
export type ThreadListView = ReadonlyView<z.infer<typeof threadListViewSchema>>;
export type ReviewHistoryItem = ReadonlyView<z.infer<typeof reviewHistoryItemSchema>>;
export type ThreadSide = (typeof threadSides)[number];
export type ReviewVerdict = (typeof reviewVerdicts)[number];

export interface EarlierDiff {
  /** The stored bytes as UTF-8 text (a `git format-patch` mail). */
  readonly diff: string;
  readonly sha256: string;
}

/** Lines of one side of one file of the diff under review. */
export interface LineRange {
  readonly path: string;
  readonly side: ThreadSide;
  readonly startLine: number;
  readonly endLine: number;
}

/** A new thread's first comment, given with the review that opens it. */
export interface NewThreadComment extends LineRange {
  readonly body: string;
}

export interface SubmitReviewInput {
  readonly verdict: ReviewVerdict;
  /** The hash of the diff the reviewer saw: a stale one is refused, nothing stored. */
  readonly sha256: string;
  readonly summary?: string | undefined;
  /** New threads, besides the person's stored drafts (which the review also submits). */
  readonly comments?: readonly NewThreadComment[] | undefined;
}

export type DraftInput =
  | ({ readonly sha256: string; readonly body: string } & LineRange)
  | { readonly sha256: string; readonly threadId: string; readonly body: string };

/**
 * The review conversation the transports offer (REST, tRPC, MCP): each method checks the actor's
 * right on the task inside its transaction; every refusal is an AppError.
 */
export interface ReviewServiceApi {
  /**
   * One submission: comment, request changes or approve, bound to the hash the reviewer saw,
   * with the summary, the given comments and the person's drafts.
   */
  submit(taskId: string, input: SubmitReviewInput, actor: Actor): Promise<void>;
  threads(taskId: string, actor: Actor): Promise<ThreadListView>;
  reply(taskId: string, threadId: string, body: string, actor: Actor): Promise<ThreadView>;
  resolve(taskId: string, threadId: string, actor: Actor): Promise<ThreadView>;
  reopen(taskId: string, threadId: string, actor: Actor): Promise<ThreadView>;
  /** Sets a standing request for changes aside, with a reason (its reviewer or an admin). */
  dismiss(taskId: string, reviewId: string, reason: string, actor: Actor): Promise<void>;
  history(taskId: string, actor: Actor): Promise<readonly ReviewHistoryItem[]>;
  /**
   * An earlier diff of the task that a thread was written on or a review was of (an outdated
   * thread's code in its place); NOT_FOUND for any other hash.
   */
  diffAt(taskId: string, sha256: string, actor: Actor): Promise<EarlierDiff>;
  drafts(taskId: string, actor: Actor): Promise<readonly DraftView[]>;
  saveDraft(
    taskId: string,
    draftId: string | null,
    input: DraftInput,
    actor: Actor,
  ): Promise<DraftView>;
  deleteDraft(taskId: string, draftId: string, actor: Actor): Promise<void>;
}
