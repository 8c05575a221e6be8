import type { Hypothesis } from '../shadow/hypothesis';
import type { ReviewThreadBrief, ThreadComment } from './review-thread-brief';
import type { RunSummary } from './task-events';

/** A hypothesis on its way into an iteration, with where it came from. */
export interface CandidateHypothesis {
  readonly hypothesis: Hypothesis;
  /** external | human | llm | scripted */
  readonly origin: string;
  /** "token:<id>", "browser", "fixer:<name>" … */
  readonly author: string | null;
  readonly submittedAt: Date;
  /** Set for hypotheses already stored in the task's inbox. */
  readonly inboxId?: string;
}

/** Read access to the task's code at its newest checkpoint (never the live worktree). */
export interface RepositoryView {
  listFiles(): Promise<readonly string[]>;
  /** A file's text; rejects for binary, oversized or missing files. */
  readFile(path: string): Promise<string>;
}

/** What a generative fixer spent on one decision. */
export interface FixerSpend {
  readonly tokens: number;
  readonly costMicroUsd: number;
}

/**
 * What a task is for, as its creator wrote it: a title, the bug report (Markdown, "" when none)
 * and an issue link. Untrusted text: prompts show it as data, never as instructions.
 */
export interface TaskBrief {
  readonly title: string;
  readonly problem: string;
  readonly issueUrl: string | null;
}

export interface FixRequest {
  readonly taskId: string;
  /** What the task is for; absent for callers outside the loop (the prompt then has no such section). */
  readonly task?: TaskBrief;
  /** 1-based. */
  readonly iteration: number;
  /** How many hypotheses the iteration wants (the task's K). */
  readonly wanted: number;
  readonly iterationStartedAt: Date;
  /** How long the iteration may wait for hypotheses. */
  readonly waitMs: number;
  readonly now: Date;
  readonly workspace: string;
  readonly testCommand: readonly string[];
  /** The run the fix should improve on: the baseline, or the newest iteration's best. */
  readonly lastRun: RunSummary | null;
  /** Tests that fail at the newest checkpoint (what a fix should make pass), by id. */
  readonly failingTests: readonly string[];
  /** Tests the newest iteration's hypotheses broke (passing before, failing with them). */
  readonly recentlyBroken: readonly string[];
  /** Hypotheses submitted from outside and not yet run, oldest first. */
  readonly pending: readonly CandidateHypothesis[];
  readonly repository: RepositoryView;
  /** Whether hypotheses may change test files (otherwise such a hypothesis cannot win). */
  readonly allowTestEdits: boolean;
  /** Tokens the task may still spend (null: no limit set). */
  readonly tokensLeft: number | null;
  /**
   * A reviewer asked for changes to the diff under review: the iteration answers them. null
   * outside a review round.
   */
  readonly review: ReviewRequest | null;
}

/** What a review round asks of its iteration: the reviewers' summaries and open threads. */
export interface ReviewRequest {
  /** 1-based: the task's review rounds so far. */
  readonly round: number;
  /** The request-changes summaries of this round, with their reviewer. */
  readonly summaries: readonly ThreadComment[];
  readonly threads: readonly ReviewThreadBrief[];
}

/** A fixer's answer to one review thread, posted in it as the fixer's comment. */
export interface ThreadReply {
  readonly threadId: string;
  readonly body: string;
  /**
   * The hypothesis the reply speaks for: it is posted only if that hypothesis wins (a reply
   * describing a change that did not land would mislead the reviewer). Unset: posted as it is.
   */
  readonly hypothesis?: string;
}

/** A hypothesis a fixer produced but that cannot run (e.g. an answer that never validated). */
export interface RejectedHypothesis {
  readonly name: string;
  readonly origin: string;
  readonly reason: string;
}

export type FixerDecision =
  /** Run these now; `rejected` are recorded as failed hypotheses with their reason. */
  | {
      readonly kind: 'run';
      readonly hypotheses: readonly CandidateHypothesis[];
      readonly rejected?: readonly RejectedHypothesis[];
      readonly spend?: FixerSpend;
      /** Answers to the review round's threads (generative fixers). */
      readonly replies?: readonly ThreadReply[];
    }
  /** Nothing to run yet: ask again at `until` or when woken by a submission. */
  | { readonly kind: 'wait'; readonly until: Date }
  /** No hypothesis will come: the iteration ends the task. */
  | { readonly kind: 'give_up'; readonly reason: string; readonly spend?: FixerSpend };

/** The Fixer port: where an iteration's hypotheses come from. */
export interface Fixer {
  readonly name: string;
  decide(request: FixRequest, signal: AbortSignal): Promise<FixerDecision>;
}

const seconds = (ms: number): string => `${Math.round(ms / 1000)} s`;

/**
 * Hypotheses from agents (REST, MCP) and people (the browser): the iteration runs as soon as it
 * has `wanted` of them, or `gatherMs` after the first arrived (so one submission does not wait for
 * the deadline, and a few sent in quick succession run together), and gives up at the deadline.
 */
export function createExternalFixer(options: { readonly gatherMs: number }): Fixer {
  return {
    name: 'external',
    decide(request) {
      const { pending, wanted, now } = request;
      const deadline = new Date(request.iterationStartedAt.getTime() + request.waitMs);
      if (pending.length >= wanted) {
        return Promise.resolve({ kind: 'run', hypotheses: pending.slice(0, wanted) });
      }
      const first = pending[0];
      if (first !== undefined) {
        const gathered = new Date(first.submittedAt.getTime() + options.gatherMs);
        return Promise.resolve(
          gathered <= now || deadline <= now
            ? { kind: 'run', hypotheses: pending }
            : { kind: 'wait', until: gathered < deadline ? gathered : deadline },
        );
      }
      return Promise.resolve(
        deadline <= now
          ? {
              kind: 'give_up',
              reason: `no hypothesis arrived within ${seconds(request.waitMs)} for iteration ${request.iteration}`,
            }
          : { kind: 'wait', until: deadline },
      );
    },
  };
}

/**
 * A fixer that plays back a fixed list of hypotheses per iteration (tests, demos). Submitted
 * hypotheses still run, ahead of the script.
 */
export function createScriptedFixer(script: readonly (readonly Hypothesis[])[]): Fixer {
  return {
    name: 'scripted',
    decide(request) {
      const scripted = (script[request.iteration - 1] ?? []).map(
        (hypothesis): CandidateHypothesis => ({
          hypothesis,
          origin: 'scripted',
          author: 'fixer:scripted',
          submittedAt: request.now,
        }),
      );
      const hypotheses = [...request.pending, ...scripted].slice(0, Math.max(request.wanted, 1));
      return Promise.resolve(
        hypotheses.length === 0
          ? {
              kind: 'give_up',
              reason: `the script has no hypothesis for iteration ${request.iteration}`,
            }
          : { kind: 'run', hypotheses },
      );
    },
  };
}
