import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat-completions request as the fake received it. */
export interface FakeChatRequest {
  /** 0-based, in order of arrival. */
  readonly index: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: {
    readonly model?: string;
    readonly messages?: readonly { readonly role: string; readonly content: string }[];
    readonly n?: number;
    readonly temperature?: number;
    readonly response_format?: { readonly type: string };
    readonly stream?: boolean;
    readonly [key: string]: unknown;
  };
}

/** What the fake answers to one request. */
export interface FakeCompletion {
  /** The text of every choice (the server makes `n` of them). */
  readonly content?: string;
  /** The text of choice i; choices past the list repeat its last entry. */
  readonly contents?: readonly string[];
  /** Reported usage; omitted from the answer when absent. */
  readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number };
  /** Wait this long before answering (a client that gives up earlier just disconnects). */
  readonly delayMs?: number;
  readonly finishReason?: string;
  /** Answer with this HTTP error status and message instead. */
  readonly status?: number;
  readonly error?: string;
}

/** Answers in order (one entry per request), or chosen from the request. */
export type FakeScript =
  | readonly FakeCompletion[]
  | ((request: FakeChatRequest) => FakeCompletion | Promise<FakeCompletion>);

export interface FakeOpenAiOptions {
  /** Refuse `n` > 1 with a 400, as llama.cpp's server does. */
  readonly refuseN?: boolean;
  /** Answer with one choice whatever `n` says. */
  readonly ignoreN?: boolean;
  /** Refuse `response_format` with a 400. */
  readonly refuseResponseFormat?: boolean;
}

export interface FakeOpenAi {
  /** The base URL to give a client, ending in `/v1`. */
  readonly url: string;
  readonly requests: FakeChatRequest[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 speaking just enough of the OpenAI API for the LLM fixer and
 * reviewer: `POST /v1/chat/completions`, JSON, non-streaming, `n` choices.
 */
export async function startFakeOpenAi(
  script: FakeScript,
  options: FakeOpenAiOptions = {},
): Promise<FakeOpenAi> {
  const requests: FakeChatRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let next = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        sendError(res, 404, `no route ${req.method ?? ''} ${req.url ?? ''}`);
        return;
      }
      let body: FakeChatRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeChatRequest['body'];
      } catch {
        sendError(res, 400, 'the request body is not JSON');
        return;
      }
      const request: FakeChatRequest = { index: requests.length, headers: req.headers, body };
      requests.push(request);
      const n = typeof body.n === 'number' ? body.n : 1;
      if (body.stream === true) {
        sendError(res, 400, 'the fake does not stream');
        return;
      }
      if (options.refuseN === true && n > 1) {
        sendError(res, 400, 'Only one completion choice is allowed');
        return;
      }
      if (options.refuseResponseFormat === true && body.response_format !== undefined) {
        sendError(res, 400, "'response_format' is not supported");
        return;
      }
      void choose(script, request, () => next++).then(
        (completion) => {
          const answer = (): void => {
            if (res.destroyed) return;
            if (completion === null) {
              sendError(res, 500, 'the fake script has no answer for this request');
            } else if (completion.status !== undefined) {
              sendError(res, completion.status, completion.error ?? 'scripted error');
            } else {
              const choices = options.ignoreN === true ? 1 : n;
              sendJson(res, 200, completionBody(body.model ?? 'fake', completion, choices));
            }
          };
          if ((completion?.delayMs ?? 0) <= 0) {
            answer();
            return;
          }
          const timer = setTimeout(() => {
            timers.delete(timer);
            answer();
          }, completion?.delayMs);
          timers.add(timer);
          res.on('close', () => {
            clearTimeout(timer);
            timers.delete(timer);
          });
        },
        (error: unknown) => {
          sendError(res, 500, error instanceof Error ? error.message : String(error));
        },
      );
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

async function choose(
  script: FakeScript,
  request: FakeChatRequest,
  take: () => number,
): Promise<FakeCompletion | null> {
  if (typeof script === 'function') return script(request);
  return script[take()] ?? null;
}

function completionBody(model: string, completion: FakeCompletion, choices: number): object {
  const contents = completion.contents ?? [completion.content ?? ''];
  return {
    id: `chatcmpl-fake-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: Array.from({ length: choices }, (_, index) => ({
      index,
      message: {
        role: 'assistant',
        content: contents[Math.min(index, contents.length - 1)] ?? '',
        refusal: null,
      },
      finish_reason: completion.finishReason ?? 'stop',
      logprobs: null,
    })),
    ...(completion.usage === undefined
      ? {}
      : {
          usage: {
            ...completion.usage,
            total_tokens: completion.usage.prompt_tokens + completion.usage.completion_tokens,
          },
        }),
  };
}

function sendJson(res: ServerResponse, status: number, body: object): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, {
    error: { message, type: status < 500 ? 'invalid_request_error' : 'server_error', code: null },
  });
}

/** The user/assistant text of a request, for scripts that answer by what was asked. */
export function requestText(request: FakeChatRequest): string {
  return (request.body.messages ?? []).map((message) => message.content).join('\n');
}
