/** Small HTTP helpers shared by the transports (REST, tRPC's browser routes, MCP over HTTP). */

const jsonHeaders = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

export function jsonResponse(body: unknown, status = 200, headers?: HeadersInit): Response {
  const merged = new Headers(jsonHeaders);
  if (headers !== undefined) {
    new Headers(headers).forEach((value, name) => {
      merged.set(name, value);
    });
  }
  return new Response(JSON.stringify(body), { status, headers: merged });
}

/** `application/json; charset=utf-8` → `application/json`; '' when there is no Content-Type. */
export function mediaTypeOf(request: Request): string {
  const header = request.headers.get('content-type') ?? '';
  return (header.split(';', 1)[0] ?? '').trim().toLowerCase();
}

export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/** The declared body length, or null when absent or not a plain decimal number. */
export function declaredContentLength(request: Request): number | null {
  const header = request.headers.get('content-length');
  if (header === null || !/^\d{1,15}$/.test(header.trim())) return null;
  return Number(header.trim());
}

/** "16 MiB", "1.5 KiB", "300 bytes": for limits in messages. */
export function formatBytes(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB'] as const;
  let value = bytes;
  let unit = 'bytes';
  for (const next of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  if (unit === 'bytes') return `${bytes} bytes`;
  return `${Number.isInteger(value) ? String(value) : value.toFixed(1)} ${unit} (${bytes} bytes)`;
}
