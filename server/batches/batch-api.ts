import type { Actor } from '../tasks/task-api';

/*
 * Integration batches: approved tasks of one repository landed together. The contract of the
 * batch services (REST `/api/v1/batches`, tRPC `batches`, MCP `get_batch`, the page
 * `/coding/batches/<id>`): every transport is a thin layer over `BatchServiceApi`.
 */

/**
 * `conflicts`: the preflight found pairs that do not merge; nothing runs until members are
 * dropped. `queued`/`running`: the combination (then the bisection) is being tested. `passed`:
 * the combined diff waits for review. `failed`: it breaks something, and `culprits` says which
 * member or pair. `error`: it could not be tested (`error` says why). `approved`/`rejected`: a
 * reviewer's verdict on the combined diff.
 */
export type BatchStatus =
  'conflicts' | 'queued' | 'running' | 'passed' | 'failed' | 'error' | 'approved' | 'rejected';

export interface BatchMemberView {
  readonly taskId: string;
  readonly title: string;
  /** 0-based order in which members are applied. */
  readonly position: number;
  /** The approved commit taken in, and the approved diff's SHA-256. */
  readonly headCommit: string;
  readonly diffSha256: string;
  /** The tests the member fixed on its own (its approved run against its baseline). */
  readonly fixed: readonly string[];
  readonly dropped: { readonly by: string; readonly at: string } | null;
}

/** Two members whose changes do not merge, and where (`git merge-tree` on the pair). */
export interface BatchConflict {
  readonly a: string;
  readonly b: string;
  readonly files: readonly {
    readonly path: string;
    /** The conflicting regions as git marks them (`<<<<<<<` … `>>>>>>>`), capped. */
    readonly hunks: readonly string[];
  }[];
}

/** One combination tested: the members applied together, and what it did to the tests. */
export interface BatchTrial {
  /** Task ids, in batch order. */
  readonly members: readonly string[];
  /** `passes`: nothing broken or lost; `breaks`: see the lists; `unrun`: no verdict (see note). */
  readonly verdict: 'passes' | 'breaks' | 'unrun';
  /** Tests passing at the baseline that fail in the combination. */
  readonly broken: readonly string[];
  /** A member's own fixed tests that fail in the combination. */
  readonly lost: readonly { readonly taskId: string; readonly tests: readonly string[] }[];
  readonly passed: number;
  readonly failed: number;
  /** Why there is no verdict, or what else is worth saying (a build failure, a timeout). */
  readonly note: string | null;
  /** The run's output tail (at most a few KB). */
  readonly outputTail: string;
}

/** What the bisection found: these members together (one alone, a pair, or more) break … */
export interface BatchCulprit {
  readonly members: readonly string[];
  readonly broken: readonly string[];
  readonly lost: readonly { readonly taskId: string; readonly tests: readonly string[] }[];
}

export interface BatchPushView {
  readonly remote: string;
  readonly branch: string;
  readonly commit: string;
  readonly by: string;
  readonly at: string;
}

export interface BatchView {
  readonly id: string;
  readonly status: BatchStatus;
  /** A Git URL's tasks, or uploads of one archive's contents (which cannot be pushed). */
  readonly sourceKind: 'git' | 'archive';
  /** The Git URL, or the archive's name. */
  readonly sourceUrl: string;
  readonly baseCommit: string;
  /** The member whose worktree (and installed dependencies) the combined tree runs over. */
  readonly hostTaskId: string;
  readonly createdBy: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly members: readonly BatchMemberView[];
  readonly conflicts: readonly BatchConflict[];
  readonly trials: readonly BatchTrial[];
  readonly culprits: readonly BatchCulprit[];
  readonly error: string | null;
  /** The combined diff under review (fetch its bytes from `…/diff`); null until it passed. */
  readonly diff: { readonly sha256: string; readonly bytes: number } | null;
  readonly review: {
    readonly verdict: 'approve' | 'reject';
    readonly sha256: string;
    readonly by: string;
    readonly at: string;
  } | null;
  readonly pushes: readonly BatchPushView[];
  /** What this actor may do now. */
  readonly can: { readonly drop: boolean; readonly review: boolean; readonly push: boolean };
}

export interface CreateBatchInput {
  /**
   * Approved tasks of one repository, in the order to apply them (2 to 8): of one Git URL, or
   * uploads of the same archive contents.
   */
  readonly tasks: readonly string[];
}

export interface ReviewBatchInput {
  readonly verdict: 'approve' | 'reject';
  /** The SHA-256 of the combined diff as the reviewer saw it (STALE_DIFF otherwise). */
  readonly sha256: string;
}

export interface PushBatchInput {
  readonly remote: string;
  /** Default `shadowbox/batch-<id>`. */
  readonly branch?: string | undefined;
}

export interface BatchDiff {
  readonly bytes: Buffer;
  readonly sha256: string;
  readonly fileName: string;
}

/** The batch services; each checks the actor's rights on every member task. */
export interface BatchServiceApi {
  /** 201: preflighted; tested in the background unless a pair conflicts. */
  createBatch(input: CreateBatchInput, actor: Actor): Promise<BatchView>;
  getBatch(id: string, actor: Actor): Promise<BatchView>;
  /** Newest first, those whose every member the actor sees. */
  listBatches(actor: Actor): Promise<BatchView[]>;
  /** Takes a member out (kept listed as dropped); the rest is preflighted and tested again. */
  dropMember(id: string, taskId: string, actor: Actor): Promise<BatchView>;
  /** The combined diff as a patch (`git diff` of the base and the combination). */
  batchDiff(id: string, actor: Actor): Promise<BatchDiff>;
  reviewBatch(id: string, input: ReviewBatchInput, actor: Actor): Promise<BatchView>;
  /** Pushes the approved combination (one commit per member) to a configured remote. */
  pushBatch(id: string, input: PushBatchInput, actor: Actor): Promise<BatchPushView>;
}
