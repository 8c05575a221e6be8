import OpenAI from 'openai';
import {
  type ChatClient,
  createLlmFixer,
  createLlmReviewer,
  type LlmReviewer,
} from '../engine/fixers';
import type { Fixer } from '../engine/loop';
import type { LlmConfig } from './llm-config';

export interface LlmAdapters {
  /** The fixer named 'llm'. */
  readonly fixer: Fixer;
  /** null unless `SHADOWBOX_REVIEWER_MODEL` is set. */
  readonly reviewer: LlmReviewer | null;
  /** The token cap of a task that sets none. */
  readonly defaultTaskTokenBudget: number;
}

/**
 * The official client for the configured endpoint. No retries (a retry is the fixer's decision and
 * a timed-out request is a rejected sample), and nothing taken from `OPENAI_*` variables.
 */
export function createOpenAiClient(config: LlmConfig): OpenAI {
  return new OpenAI({
    baseURL: config.baseUrl,
    apiKey: config.apiKey ?? 'unused',
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    timeout: config.timeoutMs,
    maxRetries: 0,
  });
}

/** The LLM fixer and (if configured) reviewer, sharing one client. */
export function createLlmAdapters(
  config: LlmConfig,
  client: ChatClient = createOpenAiClient(config),
): LlmAdapters {
  const common = {
    client,
    prices: config.prices,
    timeoutMs: config.timeoutMs,
    maxPromptTokens: config.maxPromptTokens,
  };
  return {
    fixer: createLlmFixer({ ...common, model: config.model }),
    reviewer:
      config.reviewerModel === null
        ? null
        : createLlmReviewer({ ...common, model: config.reviewerModel }),
    defaultTaskTokenBudget: config.taskTokenBudget,
  };
}
