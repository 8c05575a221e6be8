import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/**
 * Serves a fetch-style handler on a Node http server (what `next start` does for route handlers),
 * so a benchmark measures the real response path without a Next build.
 */
export async function serveFetch(
  handle: (request: Request) => Promise<Response>,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    void handle(toRequest(req, controller.signal)).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.flushHeaders();
      if (response.body === null) return void res.end();
      for await (const chunk of Readable.fromWeb(response.body as WebReadableStream)) {
        res.write(chunk);
      }
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return { url: `http://127.0.0.1:${address.port}`, server };
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  return new Request(`http://127.0.0.1${req.url ?? '/'}`, { headers, signal });
}
