import type {
  ChatCallOptions,
  ChatClient,
  ChatCompletionLike,
  ChatRequest,
  ChatUsage,
} from '../engine/fixers/chat-client';

/** What the fake client does with one request. */
export type FakeReply =
  | {
      readonly content?: string;
      /** Choice i; with fewer than `n`, the last repeats (the fake honours `n`). */
      readonly contents?: readonly string[];
      readonly usage?: ChatUsage;
      readonly finishReason?: string;
      /** Answer with one choice whatever `n` says. */
      readonly ignoreN?: boolean;
    }
  | { readonly error: unknown }
  /** Never answers: settles only when the request's signal aborts (as the real client does). */
  | { readonly hang: true };

export interface FakeCall {
  readonly body: ChatRequest;
  readonly options: ChatCallOptions | undefined;
}

/** An error shaped like the openai client's `APIError` for an HTTP status. */
export function httpError(status: number, message: string): Error & { status: number } {
  return Object.assign(new Error(`${status} ${message}`), { status });
}

/** A `ChatClient` that answers from a function of the request, and records every call. */
export class FakeChatClient implements ChatClient {
  readonly calls: FakeCall[] = [];
  readonly chat: ChatClient['chat'];

  constructor(reply: (body: ChatRequest, index: number) => FakeReply) {
    this.chat = {
      completions: {
        create: (body, options) => {
          const index = this.calls.length;
          // A copy: callers may reuse their arrays.
          this.calls.push({ body: { ...body, messages: [...body.messages] }, options });
          return respond(reply(body, index), body, options);
        },
      },
    };
  }

  /** The last message of call `index`. */
  lastMessage(index: number): string {
    return this.calls[index]?.body.messages.at(-1)?.content ?? '';
  }
}

async function respond(
  reply: FakeReply,
  body: ChatRequest,
  options: ChatCallOptions | undefined,
): Promise<ChatCompletionLike> {
  if ('hang' in reply) {
    return new Promise((_, reject) => {
      const signal = options?.signal;
      if (signal === undefined) return;
      const abort = (): void => {
        reject(new Error('Request was aborted.'));
      };
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort, { once: true });
    });
  }
  if ('error' in reply) throw reply.error;
  await Promise.resolve();
  const contents = reply.contents ?? [reply.content ?? ''];
  const count = reply.ignoreN === true ? 1 : (body.n ?? 1);
  return {
    choices: Array.from({ length: count }, (_, index) => ({
      index,
      message: { content: contents[Math.min(index, contents.length - 1)] ?? '' },
      finish_reason: reply.finishReason ?? 'stop',
    })),
    usage: reply.usage ?? null,
  };
}

/** A valid fix answer as JSON text. */
export function fixJson(
  name: string,
  edits: Record<string, string>,
  remove: readonly string[] = [],
): string {
  return JSON.stringify({
    name,
    edits: Object.entries(edits).map(([path, content]) => ({ path, content })),
    delete: remove,
  });
}
