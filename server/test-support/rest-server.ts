import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  handleCancelTask,
  handleCreateTask,
  handleGetDiff,
  handleGetPatch,
  handleGetTask,
  handleListTasks,
  handleSubmitHypotheses,
  handleTaskEvents,
  handleReview,
  type RestHandler,
  type RestRuntime,
  type TaskParams,
} from '../api/rest';

/**
 * The REST transport (`/api/v1`) on a plain Node http server: the same handlers the route files
 * call, without a Next build. For tests and benchmarks that start several web processes.
 */
const taskRoutes: Record<string, Partial<Record<string, RestHandler<TaskParams>>>> = {
  '': { GET: handleGetTask },
  hypotheses: { POST: handleSubmitHypotheses },
  events: { GET: handleTaskEvents },
  diff: { GET: handleGetDiff },
  patch: { GET: handleGetPatch },
  review: { POST: handleReview },
  cancel: { POST: handleCancelTask },
};

const tasksRoutes: Partial<Record<string, RestHandler<undefined>>> = {
  GET: handleListTasks,
  POST: handleCreateTask,
};

export async function serveRest(
  runtime: RestRuntime,
  port = 0,
): Promise<{ readonly url: string; readonly server: Server }> {
  const route = (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const deps = { runtime };
    if (pathname === '/api/v1/tasks') {
      const handler = tasksRoutes[request.method];
      if (handler !== undefined) return handler(request, deps, undefined);
    }
    const match = /^\/api\/v1\/tasks\/([^/]+)(?:\/([a-z]+))?$/.exec(pathname);
    const handler = match === null ? undefined : taskRoutes[match[2] ?? '']?.[request.method];
    if (match?.[1] !== undefined && handler !== undefined) {
      return handler(request, deps, { id: decodeURIComponent(match[1]) });
    }
    return Promise.resolve(new Response('not found', { status: 404 }));
  };
  const server = createServer((req, res) => {
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    void route(toRequest(req, controller.signal))
      .then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.flushHeaders();
        if (response.body !== null) {
          for await (const chunk of Readable.fromWeb(response.body as WebReadableStream)) {
            res.write(chunk);
          }
        }
        res.end();
      })
      .catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return { url: `http://127.0.0.1:${address.port}`, server };
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const withBody = method !== 'GET' && method !== 'HEAD';
  return new Request(`http://127.0.0.1${req.url ?? '/'}`, {
    method,
    headers,
    signal,
    ...(withBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  });
}
