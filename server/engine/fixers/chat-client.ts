/**
 * The narrow slice of an OpenAI-compatible chat client the LLM fixer and reviewer use. The `openai`
 * package's client satisfies it as it is (`chat.completions.create`), so production passes the real
 * client and unit tests pass a fake object.
 */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** How many choices to generate from the one prompt (not every server supports > 1). */
  n?: number;
  temperature?: number;
  response_format?: { type: 'json_object' };
  stream?: false;
}

export interface ChatUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
}

export interface ChatCompletionLike {
  readonly choices: readonly {
    readonly index: number;
    readonly message: { readonly content: string | null };
    readonly finish_reason?: string | null;
  }[];
  readonly usage?: ChatUsage | null;
}

export interface ChatCallOptions {
  signal?: AbortSignal;
  timeout?: number;
  maxRetries?: number;
}

export interface ChatClient {
  readonly chat: {
    readonly completions: {
      create(body: ChatRequest, options?: ChatCallOptions): PromiseLike<ChatCompletionLike>;
    };
  };
}

/** Token prices in US dollars per million tokens. */
export interface TokenPrices {
  readonly inputPerMTokUsd: number;
  readonly outputPerMTokUsd: number;
}

/** The usual estimate when a server reports no usage: about four characters per token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function estimateMessagesTokens(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, message) => sum + estimateTokens(message.content), 0);
}

/**
 * Adds up what the model calls of one decision cost. Tokens come from the server's `usage` when it
 * reports it and are estimated from the text otherwise; the cost is micro-USD, rounded once at the
 * end (a price per million tokens is exactly micro-USD per token).
 */
export class SpendMeter {
  promptTokens = 0;
  completionTokens = 0;

  /** One answered call: its usage, or estimates from the prompt and every choice's text. */
  addCall(
    usage: ChatUsage | null | undefined,
    messages: readonly ChatMessage[],
    contents: readonly string[],
  ): void {
    if (usage !== null && usage !== undefined && validCount(usage.prompt_tokens)) {
      this.promptTokens += usage.prompt_tokens;
      this.completionTokens += validCount(usage.completion_tokens) ? usage.completion_tokens : 0;
      return;
    }
    this.promptTokens += estimateMessagesTokens(messages);
    this.completionTokens += contents.reduce((sum, text) => sum + estimateTokens(text), 0);
  }

  /** A call that timed out: the server most likely read (and billed) the prompt. */
  addUnanswered(messages: readonly ChatMessage[]): void {
    this.promptTokens += estimateMessagesTokens(messages);
  }

  spend(prices: TokenPrices): { tokens: number; costMicroUsd: number } {
    return {
      tokens: this.promptTokens + this.completionTokens,
      costMicroUsd: costMicroUsd(this.promptTokens, this.completionTokens, prices),
    };
  }
}

const validCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

export function costMicroUsd(
  promptTokens: number,
  completionTokens: number,
  prices: TokenPrices,
): number {
  return Math.round(
    promptTokens * prices.inputPerMTokUsd + completionTokens * prices.outputPerMTokUsd,
  );
}

/** "120 s", "0.3 s": how the timeout is named in reasons. */
export function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? String(seconds) : String(Number(seconds.toFixed(1)))} s`;
}
