import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { createContext, type ContextRuntime } from './context';
import { describeError } from './error-shape';
import { appRouter } from './root';

export const trpcEndpoint = '/api/trpc';

/** Serves `/api/trpc/*` (queries and mutations over HTTP, subscriptions over SSE). */
export function handleTrpcRequest(
  req: Request,
  loadRuntime: () => Promise<ContextRuntime>,
): Promise<Response> {
  return fetchRequestHandler({
    endpoint: trpcEndpoint,
    req,
    router: appRouter,
    createContext: async () => createContext({ req, runtime: await loadRuntime() }),
    onError({ error, path }) {
      // Refusals are the caller's business; faults are ours.
      if (describeError(error).httpStatus >= 500) {
        console.error(`[trpc] ${path ?? '(no path)'} failed:`, error);
      }
    },
  });
}
