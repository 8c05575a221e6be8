import type { Runtime } from '../../runtime';
import { errorResponse } from '../http/errors';

/**
 * The part of the server's Runtime the REST transport uses (a whole Runtime is one), so handlers
 * and their tests need no database, bus or configuration.
 */
export type RestRuntime = Pick<
  Runtime,
  'tasks' | 'reviews' | 'batches' | 'authenticate' | 'uploadDir' | 'maxUploadBytes'
>;

/** What a REST handler needs from the process. */
export interface RestDeps {
  readonly runtime: RestRuntime;
  /** Interval of the SSE keep-alive comments; 15 s unless a test wants it shorter. */
  readonly sseHeartbeatMs?: number;
}

export interface TaskParams {
  readonly id: string;
}

/** `…/tasks/{id}/threads/{threadId}/…` */
export interface ThreadParams extends TaskParams {
  readonly threadId: string;
}

/** `…/tasks/{id}/reviews/{reviewId}/…` */
export interface ReviewParams extends TaskParams {
  readonly reviewId: string;
}

/** `…/batches/{id}/…` */
export interface BatchParams {
  readonly id: string;
}

export type RestHandler<P> = (request: Request, deps: RestDeps, params: P) => Promise<Response>;

/** Wraps a handler so every failure leaves it as an error response mapped in `errorResponse`. */
export function restHandler<P>(handle: RestHandler<P>): RestHandler<P> {
  return async (request, deps, params) => {
    try {
      return await handle(request, deps, params);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
