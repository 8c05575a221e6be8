import { errorResponse } from '../http/errors';
import type { BatchParams, RestHandler, RestRuntime, TaskParams } from './handler';

/** The second argument Next 16 passes to a route handler under `app/api/v1/tasks/[id]/…`. */
export interface TaskRouteContext {
  readonly params: Promise<{ id: string }>;
}

/** Under `app/api/v1/tasks/[id]/threads/[threadId]/…`. */
export interface ThreadRouteContext {
  readonly params: Promise<{ id: string; threadId: string }>;
}

/** Under `app/api/v1/tasks/[id]/reviews/[reviewId]/…`. */
export interface ReviewRouteContext {
  readonly params: Promise<{ id: string; reviewId: string }>;
}

/** Under `app/api/v1/batches/[id]/…`. */
export interface BatchRouteContext {
  readonly params: Promise<{ id: string }>;
}

/**
 * Glue for the route files: load the runtime, then run the handler. A runtime that fails to start
 * is answered like any other error (JSON, mapped status), not with Next's HTML error page.
 */
export async function serveRoute(
  request: Request,
  loadRuntime: () => Promise<RestRuntime>,
  handler: RestHandler<undefined>,
): Promise<Response> {
  try {
    return await handler(request, { runtime: await loadRuntime() }, undefined);
  } catch (error) {
    return errorResponse(error);
  }
}

/** For a route under `tasks/[id]`, and under its nested segments (`[threadId]`, `[reviewId]`). */
export async function serveTaskRoute<P extends TaskParams>(
  request: Request,
  context: { readonly params: Promise<P> },
  loadRuntime: () => Promise<RestRuntime>,
  handler: RestHandler<P>,
): Promise<Response> {
  try {
    const [runtime, params] = await Promise.all([loadRuntime(), context.params]);
    return await handler(request, { runtime }, params);
  } catch (error) {
    return errorResponse(error);
  }
}

/** For a route under `batches/[id]`: the same glue as a task's, with the batch's params. */
export function serveBatchRoute(
  request: Request,
  context: BatchRouteContext,
  loadRuntime: () => Promise<RestRuntime>,
  handler: RestHandler<BatchParams>,
): Promise<Response> {
  return serveTaskRoute(request, context, loadRuntime, handler);
}
