import type { z } from 'zod';
import { AppError } from '../../errors/app-error';
import { declaredContentLength, formatBytes, isJsonMediaType, mediaTypeOf } from './http-helpers';
import { parseWith } from './validation';

/**
 * Reads a JSON request body: the Content-Type must be JSON (415), the body at most `maxBytes`
 * (413, checked against Content-Length first and counted while reading, so a lying or absent
 * header does not help), valid UTF-8 and valid JSON (400).
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const mediaType = mediaTypeOf(request);
  if (!isJsonMediaType(mediaType)) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `send the request body as application/json (got ${mediaType === '' ? 'no Content-Type' : mediaType})`,
    );
  }
  const bytes = await readBodyBytes(request, maxBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError('INVALID_ARGUMENT', 'request body is not valid UTF-8');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new AppError('INVALID_ARGUMENT', 'request body is not valid JSON', {
      details: { reason: error instanceof Error ? error.message : String(error) },
    });
  }
}

/** `readJsonBody` then `schema`: the body as the handler wants it, or a 4xx AppError. */
export async function readJsonBodyAs<T extends z.ZodType>(
  request: Request,
  schema: T,
  maxBytes: number,
): Promise<z.output<T>> {
  return parseWith(schema, await readJsonBody(request, maxBytes), 'request body');
}

/** The whole body, refusing with PAYLOAD_TOO_LARGE as soon as it grows past `maxBytes`. */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = declaredContentLength(request);
  if (declared !== null && declared > maxBytes) throw bodyTooLarge(maxBytes);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw bodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function bodyTooLarge(maxBytes: number): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `request body is larger than the limit of ${formatBytes(maxBytes)}`,
    { details: { limitBytes: maxBytes } },
  );
}
