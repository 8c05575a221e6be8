import { tokens } from '../../http/test-support/fake-auth';

export const base = 'http://127.0.0.1:3000/api/v1';

export function auth(token: string = tokens.agent): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** A JSON request as an agent sends it. */
export function jsonRequest(
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = auth(),
): Request {
  return new Request(`${base}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export function getRequest(path: string, headers: Record<string, string> = auth()): Request {
  return new Request(`${base}${path}`, { headers });
}

/** A request whose body arrives in the given chunks, as a network stream would deliver it. */
export function streamedRequest(
  method: string,
  path: string,
  chunks: () => AsyncIterable<Uint8Array>,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Request {
  let iterator: AsyncIterator<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      iterator ??= chunks()[Symbol.asyncIterator]();
      const next = await iterator.next();
      if (next.done === true) controller.close();
      else controller.enqueue(next.value);
    },
  });
  return new Request(`${base}${path}`, {
    method,
    headers,
    body,
    duplex: 'half',
    ...(signal === undefined ? {} : { signal }),
  } as RequestInit);
}

export interface Part {
  readonly name: string;
  readonly value: string | Uint8Array;
  /** Makes the part a file part. */
  readonly fileName?: string;
}

export const boundary = '----shadowbox-test-boundary-7f3a';

/** A multipart/form-data body built by hand, so the tests control every byte. */
export function multipartBody(parts: readonly Part[]): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const pieces: Uint8Array[] = [];
  for (const part of parts) {
    const disposition =
      part.fileName === undefined
        ? `form-data; name="${part.name}"`
        : `form-data; name="${part.name}"; filename="${part.fileName}"`;
    const type = part.fileName === undefined ? '' : 'Content-Type: application/octet-stream\r\n';
    pieces.push(
      encoder.encode(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`),
    );
    pieces.push(typeof part.value === 'string' ? encoder.encode(part.value) : part.value);
    pieces.push(encoder.encode('\r\n'));
  }
  pieces.push(encoder.encode(`--${boundary}--\r\n`));
  return new Uint8Array(Buffer.concat(pieces));
}

export function multipartRequest(
  parts: readonly Part[],
  headers: Record<string, string> = auth(),
): Request {
  return new Request(`${base}/tasks`, {
    method: 'POST',
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, ...headers },
    body: multipartBody(parts),
  });
}

/** Reads an SSE body until `until` holds for the text so far, then cancels the read. */
export async function readSse(
  response: Response,
  until: (text: string) => boolean,
  timeoutMs = 2000,
): Promise<string> {
  if (response.body === null) throw new Error('the response has no body');
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + timeoutMs;
  try {
    while (!until(text)) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`timed out; got so far:\n${text}`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(new Error(`timed out; got so far:\n${text}`));
        }, remaining);
      });
      try {
        const { done, value } = await Promise.race([reader.read(), timeout]);
        if (done) break;
        text += decoder.decode(value, { stream: true });
      } finally {
        clearTimeout(timer);
      }
    }
  } finally {
    reader.releaseLock();
  }
  return text;
}

export interface SseMessage {
  readonly id: string | undefined;
  readonly event: string | undefined;
  readonly data: string | undefined;
  readonly comments: readonly string[];
}

/** Splits SSE text into messages (blocks separated by a blank line), per the spec's fields. */
export function parseSse(text: string): SseMessage[] {
  return text
    .split('\n\n')
    .filter((block) => block !== '')
    .map((block) => {
      const message: { id?: string; event?: string; data?: string; comments: string[] } = {
        comments: [],
      };
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          message.comments.push(line.slice(1).trim());
          continue;
        }
        const colon = line.indexOf(':');
        const field = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id' || field === 'event' || field === 'data') message[field] = value;
      }
      return {
        id: message.id,
        event: message.event,
        data: message.data,
        comments: message.comments,
      };
    });
}
