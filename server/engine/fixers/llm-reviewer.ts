import type { FixerSpend, TaskBrief } from '../loop/fixer';
import type { RunSummary } from '../loop/task-events';
import type { DiffFlags } from '../review/diff-flags';
import { parseReviewAnswer } from './answer-schema';
import { SpendMeter, type ChatClient, type TokenPrices } from './chat-client';
import { createModelCaller, sampleValidated, type ModelCallerOptions } from './model-caller';
import { buildReviewPrompt, reviewRetryMessage } from './review-prompt';

/** What the reviewer model may say. There is deliberately no approving verdict. */
export type ReviewVerdict = 'looks_good' | 'concerns' | 'unsure';

export interface ReviewInput {
  /** What the change is for; absent: the prompt has no such section. */
  readonly task?: TaskBrief;
  readonly diff: string;
  readonly flags: DiffFlags;
  readonly testCommand: readonly string[];
  readonly baseline: RunSummary | null;
  readonly final: RunSummary | null;
}

export interface ReviewResult {
  readonly verdict: ReviewVerdict;
  readonly comment: string;
  readonly spend: FixerSpend;
}

export interface LlmReviewer {
  /** Never rejects for a bad or missing answer (that is verdict 'unsure'); only when aborted. */
  review(input: ReviewInput, signal: AbortSignal): Promise<ReviewResult>;
}

export interface LlmReviewerOptions {
  readonly client: ChatClient;
  readonly model: string;
  readonly prices: TokenPrices;
  readonly timeoutMs: number;
  readonly maxPromptTokens: number;
  readonly temperature?: number;
  readonly jsonMode?: ModelCallerOptions['jsonMode'];
}

const maxCommentChars = 4_000;

/** A second opinion on the diff under review, with the test evidence. It comments; people decide. */
export function createLlmReviewer(options: LlmReviewerOptions): LlmReviewer {
  const caller = createModelCaller(options);
  return {
    async review(input, signal) {
      const prompt = buildReviewPrompt({ ...input, maxPromptTokens: options.maxPromptTokens });
      const meter = new SpendMeter();
      const [result] = await sampleValidated(caller, {
        messages: prompt.messages,
        count: 1,
        parse: parseReviewAnswer,
        retryMessage: reviewRetryMessage,
        timeoutMs: options.timeoutMs,
        signal,
        meter,
      });
      const spend = meter.spend(options.prices);
      if (result === undefined || result.kind === 'rejected') {
        const reason = result?.reason ?? 'the model returned no answer';
        return { verdict: 'unsure', comment: `The automated review failed: ${reason}.`, spend };
      }
      const comment =
        result.value.comment.length > maxCommentChars
          ? `${result.value.comment.slice(0, maxCommentChars - 1)}…`
          : result.value.comment;
      return { verdict: result.value.verdict, comment, spend };
    },
  };
}
