import type { EgressRecord } from '../egress/egress-log';
import type { IntakeEvent } from '../intake/intake-events';
import type { HypothesisOutcome } from '../shadow/shadow-report';
import type { DiffFlags } from '../review/diff-flags';
import type { ReviewThreadBrief } from './review-thread-brief';
import type { TaskStatus } from './task-status';

/** A test run as the task keeps it: a shadow's outcome without the hypothesis, plus the verdict. */
export interface RunSummary extends Omit<HypothesisOutcome, 'name' | 'changedLines'> {
  /** A clean pass (see `isPass`): what "the last run after the last write passed" asks. */
  readonly green: boolean;
}

/** What a setup did, as its result and its `setup.finished` event say. */
export interface SetupRunResult {
  readonly ok: boolean;
  /** Restored from an earlier task's identical setup instead of installed again. */
  readonly cached: boolean;
  readonly durationMs: number;
  /** Every host the setup asked to reach, allowed or refused. */
  readonly egress: readonly EgressRecord[];
  readonly failedCommand: readonly string[] | null;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly outputTail: string;
  readonly error: string | null;
}

export interface RankedHypothesis extends HypothesisOutcome {
  readonly rank: number;
}

/**
 * Everything that happens to a task, persisted (with a per-task sequence number) before it is
 * published. The status changes are exactly the transitions `reduceTask` accepts; the others only
 * carry information for the timeline.
 */
export type TaskEvent =
  | {
      readonly type: 'task.created';
      readonly source:
        | { readonly kind: 'git'; readonly url: string; readonly ref: string | null }
        | { readonly kind: 'archive'; readonly name: string };
      readonly testCommand: readonly string[];
      readonly maxIterations: number;
      readonly hypothesesPerIteration: number;
    }
  | { readonly type: 'task.preparing' }
  | IntakeEvent
  | {
      readonly type: 'workspace.ready';
      readonly baselineCommit: string;
      readonly worktreePath: string;
      readonly mode: 'overlay' | 'inplace';
      readonly fallbackReason: string | null;
    }
  | {
      /**
       * The task's repository or worktree was not on this worker's disk (or was at an older
       * checkpoint) and was rebuilt from the stored bundles at `checkpointSha`.
       */
      readonly type: 'workspace.restored';
      readonly checkpointSha: string;
      readonly worktreePath: string;
      readonly repository: boolean;
      readonly bundles: number;
      readonly worktree: 'created' | 'reset' | 'kept';
    }
  | {
      /** Dependencies are installed once, in the worktree, with network only through the allowlist. */
      readonly type: 'setup.started';
      readonly commands: readonly (readonly string[])[];
      /** Whether the commands were detected from the tree (the task gave none). */
      readonly detected: boolean;
      /** Why each detected command: "package-lock.json → npm ci". */
      readonly reasons: readonly string[];
    }
  | ({ readonly type: 'setup.finished' } & SetupRunResult)
  | { readonly type: 'baseline.started'; readonly command: readonly string[] }
  | {
      /** Output lines of a running command, batched (one event per flush, not per line). */
      readonly type: 'run.output';
      /** 'baseline' or the hypothesis' name. */
      readonly subject: string;
      /** 0 for the baseline. */
      readonly iteration: number;
      readonly lines: readonly string[];
    }
  | { readonly type: 'baseline.finished'; readonly run: RunSummary }
  | { readonly type: 'iteration.started'; readonly index: number }
  | {
      readonly type: 'iteration.awaiting_hypotheses';
      readonly index: number;
      readonly wanted: number;
      /** ISO time after which the task ends if nothing arrived. */
      readonly deadline: string;
    }
  | {
      readonly type: 'hypotheses.submitted';
      readonly names: readonly string[];
      readonly origin: string;
    }
  | {
      readonly type: 'iteration.running';
      readonly index: number;
      readonly hypotheses: readonly { readonly name: string; readonly origin: string }[];
    }
  | { readonly type: 'hypothesis.started'; readonly index: number; readonly name: string }
  | {
      /** A fixer's spend on one decision, and the task's totals after it. */
      readonly type: 'fixer.spent';
      readonly tokens: number;
      readonly costMicroUsd: number;
      readonly totalTokens: number;
      readonly totalCostMicroUsd: number;
    }
  | {
      readonly type: 'hypothesis.finished';
      readonly index: number;
      readonly result: HypothesisOutcome;
    }
  | {
      readonly type: 'iteration.finished';
      readonly index: number;
      readonly winner: string | null;
      readonly checkpointSha: string | null;
      readonly green: boolean;
      readonly ranked: readonly RankedHypothesis[];
      /** Produced but not runnable (e.g. a fixer's answer that never validated). */
      readonly rejected?: readonly { readonly name: string; readonly reason: string }[];
    }
  | {
      /** The plan's gate commands ran on a checkpoint (after the baseline or a winner). */
      readonly type: 'gates.finished';
      readonly commitSha: string;
      readonly gates: readonly {
        readonly step: number;
        readonly gate: number;
        readonly argv: readonly string[];
        readonly green: boolean;
        readonly exitCode: number | null;
      }[];
    }
  | {
      readonly type: 'milestone.done';
      readonly step: number;
      readonly commitSha: string;
      readonly by: string;
    }
  | { readonly type: 'milestone.reset'; readonly step: number; readonly by: string }
  | {
      readonly type: 'review.ready';
      readonly diffSha256: string;
      readonly flags: DiffFlags;
      readonly size: number;
      /**
       * The fix leaves baseline failures failing (the iterations ended with a checkpoint that
       * fixed some and broke none): what still fails, all of it failing since the baseline.
       */
      readonly partial?: boolean;
      readonly stillFailing?: readonly string[];
    }
  | {
      /** A reviewer model commented on the diff under review; it cannot approve. */
      readonly type: 'review.commented';
      readonly reviewer: string;
      readonly verdict: string;
      readonly comment: string;
      readonly diffSha256: string;
    }
  | {
      /**
       * A reviewer asked for changes to the diff `sha256`: review round `round` gives the task
       * iteration `iteration` (beyond maxIterations), built on the checkpoint under review, to
       * answer the open threads (inline, as fixers and agents read them).
       */
      readonly type: 'task.changes_requested';
      readonly sha256: string;
      readonly by: string;
      readonly round: number;
      readonly iteration: number;
      readonly summary: string | null;
      readonly threads: readonly ReviewThreadBrief[];
    }
  | {
      /** A person's review of the diff `sha256`: a comment, or the verdict events that follow. */
      readonly type: 'review.submitted';
      readonly verdict: 'comment' | 'request_changes' | 'approve';
      readonly sha256: string;
      readonly by: string;
      /** Threads it opened and replies it posted. */
      readonly threads: number;
      readonly replies: number;
    }
  | {
      /** Something happened in a review thread (the page reloads it; agents may poll). */
      readonly type: 'review.thread';
      readonly threadId: string;
      readonly action: 'replied' | 'resolved' | 'reopened';
      readonly by: string;
    }
  | {
      /** A reviewer's sticky request for changes was set aside with a reason (audited). */
      readonly type: 'review.dismissed';
      readonly reviewId: string;
      readonly by: string;
      readonly reason: string;
    }
  | {
      /**
       * A reviewer put `hypothesis`, a passing runner-up of the newest iteration, up for review
       * in place of its winner `passedOver`, for `reason`: its tree is the iteration's checkpoint
       * now (`checkpointSha`), and the `review.ready` that follows carries its diff.
       */
      readonly type: 'review.promoted';
      readonly iteration: number;
      readonly hypothesis: string;
      readonly passedOver: string;
      readonly reason: string;
      readonly by: string;
      readonly checkpointSha: string;
    }
  | {
      /**
       * A person asked to send the newest checkpoint to review without waiting for more
       * hypotheses (its fix is partial): the next step puts it up for review.
       */
      readonly type: 'review.requested_now';
      readonly by: string;
      readonly checkpointSha: string;
    }
  | {
      /**
       * A person accepted tests that failed at the baseline and still fail as known failures:
       * the task no longer waits for them to pass (`knownFailures` is the whole list now).
       */
      readonly type: 'task.known_failures';
      readonly by: string;
      readonly added: readonly string[];
      readonly knownFailures: readonly string[];
    }
  | {
      /** An approved task's commits were pushed to a branch of a configured remote. */
      readonly type: 'task.pushed';
      readonly by: string;
      readonly remote: string;
      readonly url: string;
      readonly branch: string;
      readonly commit: string;
      readonly sha256: string;
      /** The pull request opened or updated for the branch, if one was asked for. */
      readonly pullRequest: string | null;
    }
  | { readonly type: 'task.approved'; readonly sha256: string; readonly by: string }
  | { readonly type: 'task.rejected'; readonly sha256: string; readonly by: string }
  /** A reviewer took an approved task back to review: the approval no longer holds. */
  | { readonly type: 'task.reopened'; readonly sha256: string; readonly by: string }
  | { readonly type: 'task.rolled_back'; readonly to: string }
  | { readonly type: 'task.failed'; readonly reason: string }
  | { readonly type: 'task.cancelled'; readonly by: string }
  /** A fix under review was rolled back to the baseline by hand. */
  | { readonly type: 'task.abandoned'; readonly by: string }
  | { readonly type: 'task.interrupted'; readonly reason: string }
  | {
      readonly type: 'task.resumed';
      readonly status: TaskStatus;
      readonly checkpointSha: string | null;
    };

export type TaskEventType = TaskEvent['type'];

export type { EgressRecord };
