/**
 * A small Server-Sent Events parser (the WHATWG "event stream interpretation"), so the tests read
 * the stream exactly as a browser would, without a dependency.
 */
export interface SseMessage {
  /** The `id:` field of this very frame, or undefined when the frame had none. */
  readonly id: string | undefined;
  /** The stream's last event id when this frame was dispatched (inherited from earlier frames). */
  readonly lastEventId: string;
  /** `event:`; 'message' when the frame named none. */
  readonly event: string;
  /** The `data:` lines joined with '\n'. */
  readonly data: string;
  readonly retry: number | undefined;
}

export class SseParser {
  #buffer = '';
  #started = false;
  #lastEventId = '';
  #frameId: string | undefined;
  #event = '';
  #data: string[] = [];
  #retry: number | undefined;

  /** Feeds decoded text; returns the frames it completed. */
  feed(text: string): SseMessage[] {
    this.#buffer += text;
    if (!this.#started && this.#buffer.length > 0) {
      this.#started = true;
      if (this.#buffer.startsWith('\uFEFF')) this.#buffer = this.#buffer.slice(1);
    }
    const messages: SseMessage[] = [];
    for (;;) {
      const cr = this.#buffer.indexOf('\r');
      const lf = this.#buffer.indexOf('\n');
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) break;
      // A CR at the very end may be the first half of a CRLF split across chunks.
      if (end === cr && end === this.#buffer.length - 1) break;
      const width = end === cr && this.#buffer[end + 1] === '\n' ? 2 : 1;
      const line = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + width);
      const message = this.#line(line);
      if (message !== undefined) messages.push(message);
    }
    return messages;
  }

  /** The stream ended: a lone trailing CR still ends its line; an unfinished frame is dropped. */
  end(): SseMessage[] {
    const messages = this.#buffer.endsWith('\r') ? this.feed('\n') : [];
    this.#buffer = '';
    this.#reset();
    return messages;
  }

  #line(line: string): SseMessage | undefined {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.#event = value;
        break;
      case 'data':
        this.#data.push(value);
        break;
      case 'id':
        if (!value.includes('\0')) {
          this.#lastEventId = value;
          this.#frameId = value;
        }
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.#retry = Number(value);
        break;
      default:
        break;
    }
    return undefined;
  }

  #dispatch(): SseMessage | undefined {
    if (this.#data.length === 0) {
      this.#reset();
      return undefined;
    }
    const message: SseMessage = {
      id: this.#frameId,
      lastEventId: this.#lastEventId,
      event: this.#event === '' ? 'message' : this.#event,
      data: this.#data.join('\n'),
      retry: this.#retry,
    };
    this.#reset();
    return message;
  }

  #reset(): void {
    this.#frameId = undefined;
    this.#event = '';
    this.#data = [];
    this.#retry = undefined;
  }
}

/** Reads a fetch body as SSE frames until it ends or `signal` aborts (then it just stops). */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<SseMessage> {
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = body.getReader();
  const aborted = (): boolean => signal?.aborted === true;
  try {
    for (;;) {
      if (aborted()) return;
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (aborted()) return;
        throw error;
      }
      if (chunk.done) break;
      yield* parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
    yield* parser.feed(decoder.decode());
    yield* parser.end();
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
