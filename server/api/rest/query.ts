import { AppError } from '../../errors/app-error';

// The query and header parameters of the REST routes; the bodies' schemas are server/api/http's.

/** A whole number ≥ 0 written in decimal (an SSE id, a `?after=` or a `?limit=`). */
export function parseCount(value: string, what: string): number {
  const number = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `${what} must be a whole number ≥ 0, got ${JSON.stringify(value.slice(0, 64))}`,
    );
  }
  return number;
}

/** Where an event stream resumes: `Last-Event-ID` (what EventSource sends), else `?after=`. */
export function parseAfterSeq(request: Request): number {
  const lastEventId = request.headers.get('last-event-id');
  if (lastEventId !== null) return parseCount(lastEventId.trim(), 'Last-Event-ID');
  const after = new URL(request.url).searchParams.get('after');
  if (after !== null) return parseCount(after, 'after');
  return 0;
}
