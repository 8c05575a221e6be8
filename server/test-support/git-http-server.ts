import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execa } from 'execa';

/** A loopback HTTP server for integration tests; `close` stops it and its children. */
export interface LoopbackServer {
  readonly port: number;
  readonly requests: string[];
  close(): Promise<void>;
}

async function listen(server: Server, requests: string[]): Promise<LoopbackServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

function serveCgi(
  projectRoot: string,
  request: IncomingMessage,
  response: ServerResponse,
  remoteUser: string | null = null,
): void {
  const url = new URL(request.url ?? '/', 'http://loopback');
  const child = execa('git', ['http-backend'], {
    extendEnv: false,
    reject: false,
    buffer: false,
    stdin: 'pipe',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_PROJECT_ROOT: projectRoot,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      REQUEST_METHOD: request.method ?? 'GET',
      CONTENT_TYPE: request.headers['content-type'] ?? '',
      HTTP_CONTENT_ENCODING: request.headers['content-encoding'] ?? '',
      GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
      REMOTE_ADDR: '127.0.0.1',
      // http-backend takes pushes from an authenticated user only.
      ...(remoteUser === null ? {} : { REMOTE_USER: remoteUser }),
    },
  });
  request.pipe(child.stdin);
  let head = Buffer.alloc(0);
  let headersDone = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersDone) {
      response.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf('\r\n\r\n');
    if (end === -1) return;
    headersDone = true;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
      const [name = '', ...rest] = line.split(':');
      const value = rest.join(':').trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
      else response.setHeader(name, value);
    }
    response.writeHead(status);
    response.write(head.subarray(end + 4));
  });
  void child.then(() => {
    if (!headersDone) response.writeHead(500);
    response.end();
  });
}

/** Serves every bare repository under `projectRoot` with `git http-backend` (smart HTTP). */
export function startGitHttpServer(projectRoot: string): Promise<LoopbackServer> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method ?? ''} ${request.url ?? ''}`);
    serveCgi(projectRoot, request, response);
  });
  return listen(server, requests);
}

/**
 * `git http-backend` behind HTTP basic auth, as a team's forge would be: a request without the
 * right user and password gets 401 (git then asks its askpass); pushes are taken from that user.
 * `authorizations` records each Authorization header seen, for tests that look for leaks.
 */
export function startAuthGitHttpServer(
  projectRoot: string,
  credential: { readonly username: string; readonly password: string },
  /** Held before each answer: keeps the client's processes alive long enough to be looked at. */
  delayMs = 0,
  /** Answers `/api/…` (a forge's REST API beside its Git, as forges serve them). */
  api?: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<LoopbackServer & { readonly authorizations: string[] }> {
  const requests: string[] = [];
  const authorizations: string[] = [];
  const expected = `Basic ${Buffer.from(`${credential.username}:${credential.password}`).toString('base64')}`;
  const server = createServer((request, response) => {
    requests.push(`${request.method ?? ''} ${request.url ?? ''}`);
    if (api !== undefined && (request.url ?? '').startsWith('/api/')) {
      api(request, response);
      return;
    }
    const given = request.headers.authorization;
    if (given !== undefined) authorizations.push(given);
    setTimeout(() => {
      if (given !== expected) {
        response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="forge"' });
        response.end();
        return;
      }
      serveCgi(projectRoot, request, response, credential.username);
    }, delayMs);
  });
  return listen(server, requests).then((loopback) => ({ ...loopback, authorizations }));
}

/** Answers every request with a redirect to `target` + the requested path. */
export function startRedirectServer(target: string, status = 302): Promise<LoopbackServer> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method ?? ''} ${request.url ?? ''}`);
    response.writeHead(status, { location: `${target}${request.url ?? '/'}` });
    response.end();
  });
  return listen(server, requests);
}

/** Accepts requests and never answers: for the clone time cap. */
export function startSilentServer(): Promise<LoopbackServer> {
  const requests: string[] = [];
  const server = createServer((request) => {
    requests.push(`${request.method ?? ''} ${request.url ?? ''}`);
  });
  return listen(server, requests);
}
