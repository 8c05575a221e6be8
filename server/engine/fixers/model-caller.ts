import {
  formatSeconds,
  type ChatClient,
  type ChatMessage,
  type ChatRequest,
  type SpendMeter,
} from './chat-client';

/** What became of one requested sample. */
export type SampleOutcome =
  | {
      readonly kind: 'answer';
      readonly content: string;
      /** The server stopped at its output limit (`finish_reason: length`). */
      readonly truncated: boolean;
    }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'failed'; readonly reason: string };

export interface ModelCallerOptions {
  readonly client: ChatClient;
  readonly model: string;
  readonly timeoutMs: number;
  readonly temperature?: number;
  /**
   * How K samples are asked for. 'auto' (default): one request with `n: K`, falling back to K
   * parallel requests when the server refuses `n` (400) or answers with fewer choices, and
   * remembering that. 'n' / 'separate' force one way.
   */
  readonly multipleChoices?: 'auto' | 'n' | 'separate';
  /**
   * `response_format: {type: 'json_object'}`. 'auto' (default): sent, and dropped for good once a
   * request that a server refused with 400 succeeds without it.
   */
  readonly jsonMode?: 'auto' | 'always' | 'never';
}

export interface ModelCaller {
  /**
   * Asks for `count` answers to one conversation. Each request has its own timeout (combined with
   * `signal`); a timed-out or failed request is an outcome, not an error. Rejects only when
   * `signal` aborts (with its reason).
   */
  sample(
    messages: readonly ChatMessage[],
    count: number,
    signal: AbortSignal,
    meter: SpendMeter,
  ): Promise<SampleOutcome[]>;
}

type Support = 'unknown' | 'yes' | 'no';

type CallResult =
  | { readonly kind: 'answers'; readonly outcomes: readonly SampleOutcome[] }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'failed'; readonly reason: string }
  /** A 400 for a request with `n` > 1 while it is unknown whether the server takes `n`. */
  | { readonly kind: 'n_refused'; readonly reason: string };

export function createModelCaller(options: ModelCallerOptions): ModelCaller {
  let nSupport: Support =
    options.multipleChoices === 'n'
      ? 'yes'
      : options.multipleChoices === 'separate'
        ? 'no'
        : 'unknown';
  let jsonSupport: Support =
    options.jsonMode === 'always' ? 'yes' : options.jsonMode === 'never' ? 'no' : 'unknown';

  async function call(
    messages: readonly ChatMessage[],
    n: number,
    signal: AbortSignal,
    meter: SpendMeter,
    json: boolean = jsonSupport !== 'no',
  ): Promise<CallResult> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const body: ChatRequest = { model: options.model, messages: [...messages], stream: false };
    if (n > 1) body.n = n;
    if (options.temperature !== undefined) body.temperature = options.temperature;
    if (json) body.response_format = { type: 'json_object' };
    try {
      const completion = await options.client.chat.completions.create(body, {
        signal: AbortSignal.any([signal, timeout]),
        // A backstop only: our own timer fires first, so the reason names our timeout.
        timeout: options.timeoutMs + 1000,
        maxRetries: 0,
      });
      const choices = [...completion.choices].sort((a, b) => a.index - b.index);
      const contents = choices.map((choice) => choice.message.content ?? '');
      meter.addCall(completion.usage, messages, contents);
      return {
        kind: 'answers',
        outcomes: choices.map((choice, i) => ({
          kind: 'answer',
          content: contents[i] ?? '',
          truncated: choice.finish_reason === 'length',
        })),
      };
    } catch (error) {
      if (signal.aborted) throw abortError(signal);
      if (timeout.aborted || isTimeoutError(error)) {
        meter.addUnanswered(messages);
        return { kind: 'timeout' };
      }
      const reason = `the model request failed: ${describeError(error)}`;
      if (isBadRequest(error)) {
        if (n > 1 && nSupport === 'unknown') return { kind: 'n_refused', reason };
        if (json && jsonSupport === 'unknown') {
          const retried = await call(messages, n, signal, meter, false);
          if (retried.kind === 'answers') jsonSupport = 'no';
          return retried;
        }
      }
      return { kind: 'failed', reason };
    }
  }

  async function separately(
    messages: readonly ChatMessage[],
    count: number,
    signal: AbortSignal,
    meter: SpendMeter,
  ): Promise<SampleOutcome[]> {
    const results = await Promise.all(
      Array.from({ length: count }, () => call(messages, 1, signal, meter)),
    );
    return results.map((result) => firstOutcome(result));
  }

  return {
    async sample(messages, count, signal, meter) {
      if (count <= 0) return [];
      if (count === 1 || nSupport === 'no') return separately(messages, count, signal, meter);
      const result = await call(messages, count, signal, meter);
      switch (result.kind) {
        case 'timeout':
          return Array.from({ length: count }, () => result);
        case 'failed':
          return Array.from({ length: count }, () => result);
        case 'n_refused': {
          const outcomes = await separately(messages, count, signal, meter);
          if (outcomes.some((outcome) => outcome.kind === 'answer')) nSupport = 'no';
          return outcomes;
        }
        case 'answers': {
          if (result.outcomes.length >= count) {
            nSupport = 'yes';
            return result.outcomes.slice(0, count);
          }
          // The server ignored `n` (llama.cpp and others answer with one choice).
          nSupport = 'no';
          const rest = await separately(messages, count - result.outcomes.length, signal, meter);
          return [...result.outcomes, ...rest];
        }
      }
    },
  };
}

function firstOutcome(result: CallResult): SampleOutcome {
  switch (result.kind) {
    case 'answers':
      return result.outcomes[0] ?? { kind: 'failed', reason: 'the model returned no choice' };
    case 'timeout':
      return result;
    case 'failed':
    case 'n_refused':
      return { kind: 'failed', reason: result.reason };
  }
}

export type Validation<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export type ValidatedSample<T> =
  | { readonly kind: 'valid'; readonly value: T; readonly retried: boolean }
  | { readonly kind: 'rejected'; readonly reason: string };

/**
 * `count` samples, each validated by `parse`. An invalid answer is retried once, in its own
 * conversation: the prompt, the invalid answer, and `retryMessage(error)`. Still invalid, timed out
 * or failed: rejected with the reason.
 */
export async function sampleValidated<T>(
  caller: ModelCaller,
  input: {
    readonly messages: readonly ChatMessage[];
    readonly count: number;
    readonly parse: (text: string) => Validation<T>;
    readonly retryMessage: (error: string) => string;
    readonly timeoutMs: number;
    readonly signal: AbortSignal;
    readonly meter: SpendMeter;
  },
): Promise<ValidatedSample<T>[]> {
  const { messages, parse, signal, meter } = input;
  const check = (outcome: SampleOutcome): Validation<T> & { readonly content: string } => {
    if (outcome.kind !== 'answer') throw new Error('only answers are checked');
    const result = parse(outcome.content);
    if (result.ok || !outcome.truncated) return { ...result, content: outcome.content };
    return {
      ok: false,
      error: `${result.error} (the answer was cut off at the model's output limit)`,
      content: outcome.content,
    };
  };
  const unanswered = (outcome: SampleOutcome): ValidatedSample<T> => ({
    kind: 'rejected',
    reason:
      outcome.kind === 'timeout'
        ? `the model did not answer within ${formatSeconds(input.timeoutMs)}`
        : outcome.kind === 'failed'
          ? outcome.reason
          : 'unexpected answer',
  });

  const first = await caller.sample(messages, input.count, signal, meter);
  return Promise.all(
    first.map(async (outcome): Promise<ValidatedSample<T>> => {
      if (outcome.kind !== 'answer') return unanswered(outcome);
      const checked = check(outcome);
      if (checked.ok) return { kind: 'valid', value: checked.value, retried: false };
      const conversation: ChatMessage[] = [
        ...messages,
        { role: 'assistant', content: checked.content },
        { role: 'user', content: input.retryMessage(checked.error) },
      ];
      const [second] = await caller.sample(conversation, 1, signal, meter);
      if (second === undefined) return { kind: 'rejected', reason: 'the model returned no choice' };
      if (second.kind !== 'answer') return unanswered(second);
      const again = check(second);
      if (again.ok) return { kind: 'valid', value: again.value, retried: true };
      return {
        kind: 'rejected',
        reason: `the model's answer was invalid twice: ${again.error}`,
      };
    }),
  );
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('the operation was aborted');
}

function isTimeoutError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'TimeoutError' ||
    error.constructor.name === 'APIConnectionTimeoutError' ||
    /request timed out/i.test(error.message)
  );
}

function isBadRequest(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('status' in error)) return false;
  return error.status === 400 || error.status === 422;
}

/** One line, bounded: error messages end up in events and the UI. */
export function describeError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line || 'unknown error';
}
