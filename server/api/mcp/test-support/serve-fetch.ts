import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

export interface ServedHandler {
  /** `http://127.0.0.1:PORT` + the path the handler is mounted at. */
  readonly url: URL;
  close(): Promise<void>;
}

/**
 * Serves a fetch-style handler on a real Node HTTP server on a free loopback port, as Next.js
 * serves a route: the request's signal aborts when the client goes away, bodies stream both ways.
 */
export async function serveFetchHandler(
  handler: (request: Request) => Promise<Response>,
  mountPath = '/api/mcp',
): Promise<ServedHandler> {
  const server = createServer((req, res) => {
    void forward(handler, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}${mountPath}`),
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
      }),
  };
}

async function forward(
  handler: (request: Request) => Promise<Response>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one !== undefined) headers.append(name, one);
    }
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    signal: gone.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  });
  try {
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body === null) {
      res.end();
      return;
    }
    const body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
    res.on('close', () => body.destroy());
    body.pipe(res);
  } catch (error) {
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}
