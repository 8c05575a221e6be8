// Generative fixers and reviewers: framework-free, talking to any OpenAI-compatible chat endpoint
// through the narrow `ChatClient` port.
export { createLlmFixer, type LlmFixerOptions } from './llm-fixer';
export {
  createLlmReviewer,
  type LlmReviewer,
  type LlmReviewerOptions,
  type ReviewInput,
  type ReviewResult,
  type ReviewVerdict,
} from './llm-reviewer';
export type { ChatClient, TokenPrices } from './chat-client';
