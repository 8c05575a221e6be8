import type { StoredEvent } from '../../db/event-store';
import { isAppError } from '../../errors/app-error';
import { errorBody } from '../http/errors';

export const defaultHeartbeatMs = 15_000;

export const sseHeaders = {
  'Content-Type': 'text/event-stream',
  // no-transform keeps compression (which buffers) away from the stream.
  'Cache-Control': 'no-cache, no-transform',
  // nginx and friends: do not buffer.
  'X-Accel-Buffering': 'no',
} as const;

/** One SSE message per stored event; its `id` is the event's seq, so `Last-Event-ID` resumes. */
export function formatSseEvent(event: StoredEvent): string {
  const data = JSON.stringify({
    seq: event.seq,
    type: event.type,
    createdAt: event.createdAt.toISOString(),
    payload: event.payload,
  });
  // JSON.stringify escapes CR and LF inside strings, so `data` is one line.
  return `id: ${event.seq}\nevent: ${singleLine(event.type)}\ndata: ${data}\n\n`;
}

export const sseHeartbeat = ': keep-alive\n\n';

/** The failure of a stream already under way: no id, so a reconnect resumes where it stopped. */
export function formatSseError(error: unknown): string {
  return `event: stream.error\ndata: ${JSON.stringify(errorBody(error))}\n\n`;
}

export interface EventStreamOptions {
  /** The request's signal: the client went away. */
  readonly signal: AbortSignal;
  readonly heartbeatMs: number;
}

/**
 * A `text/event-stream` response over `open(signal)`. The events are pulled one at a time as the
 * client reads (backpressure); a comment is sent every `heartbeatMs` so proxies keep the
 * connection; the source is aborted when the client disconnects or cancels the body.
 */
export function eventStreamResponse(
  open: (signal: AbortSignal) => AsyncIterable<StoredEvent>,
  options: EventStreamOptions,
): Response {
  const encoder = new TextEncoder();
  const abort = new AbortController();
  let iterator: AsyncIterator<StoredEvent> | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let output: ReadableStreamDefaultController<Uint8Array> | undefined;
  let closed = false;
  // A function, so the checks after an `await` are not narrowed away: `stop` runs meanwhile.
  const isClosed = (): boolean => closed;

  /** Ends everything once: the source, the heartbeat, and (unless it is gone) the body. */
  const stop = (closeBody: boolean): void => {
    if (closed) return;
    closed = true;
    abort.abort();
    clearInterval(heartbeat);
    options.signal.removeEventListener('abort', onClientGone);
    const pending = iterator?.return?.();
    if (pending !== undefined) void pending.catch(() => undefined);
    if (closeBody) {
      try {
        output?.close();
      } catch {
        // already closed or errored
      }
    }
  };
  const onClientGone = (): void => {
    stop(true);
  };
  const send = (text: string): void => {
    if (closed || output === undefined) return;
    try {
      output.enqueue(encoder.encode(text));
    } catch {
      stop(false);
    }
  };

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      output = controller;
      if (options.signal.aborted) {
        stop(true);
        return;
      }
      options.signal.addEventListener('abort', onClientGone, { once: true });
      iterator = open(abort.signal)[Symbol.asyncIterator]();
      heartbeat = setInterval(() => {
        send(sseHeartbeat);
      }, options.heartbeatMs);
      heartbeat.unref();
      send(': connected\n\n');
    },
    async pull() {
      if (closed || iterator === undefined) return;
      try {
        const next = await iterator.next();
        if (next.done === true) {
          stop(true);
          return;
        }
        send(formatSseEvent(next.value));
      } catch (error) {
        if (isClosed()) return;
        if (!isAppError(error)) console.error('[rest] event stream failed:', error);
        send(formatSseError(error));
        stop(true);
      }
    },
    cancel() {
      stop(false);
    },
  });
  return new Response(body, { status: 200, headers: sseHeaders });
}

function singleLine(text: string): string {
  return text.replace(/[\r\n]/g, ' ');
}
