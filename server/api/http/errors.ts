import { type AppError, httpStatusOf, isAppError } from '../../errors/app-error';
import { jsonResponse } from './http-helpers';

/**
 * The one place where an HTTP transport (REST, tRPC's browser routes, MCP over HTTP) turns a
 * failure into a response: an AppError keeps its code, message and details with the status from
 * `httpStatusOf`; anything else is a bug or a fault, logged here and answered with a bare 500 (no
 * message, no stack).
 */
export function errorResponse(error: unknown): Response {
  if (isAppError(error)) {
    const status = httpStatusOf(error.code);
    if (status >= 500) console.error('[rest] request failed:', error);
    const headers: Record<string, string> = {};
    if (error.code === 'UNAUTHENTICATED') headers['WWW-Authenticate'] = 'Bearer';
    return jsonResponse({ error: error.toJSON() }, status, headers);
  }
  console.error('[rest] unexpected error:', error);
  return jsonResponse({ error: { code: 'INTERNAL', message: 'internal error' } }, 500);
}

/** `{"error":{…}}` body of an AppError, for places that cannot change the status any more (SSE). */
export function errorBody(error: unknown): { error: ReturnType<AppError['toJSON']> } {
  if (isAppError(error)) return { error: error.toJSON() };
  return { error: { code: 'INTERNAL', message: 'internal error' } };
}
