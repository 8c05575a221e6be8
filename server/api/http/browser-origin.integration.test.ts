import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createToken,
  ensureBuilt,
  startServer,
  type ServerHandle,
} from '../../test-support/app-server';

/**
 * DNS rebinding against the built app: a page on evil.example whose name now resolves to
 * 127.0.0.1 sends its requests to the server with `Host: evil.example:PORT` (and, when it posts,
 * its own Origin). `fetch` cannot forge Host, so these are raw node:http requests to 127.0.0.1.
 */

const minutes = (n: number): number => n * 60_000;
// A task id of the right shape that names no task.
const missingTask = 'a'.repeat(24);

interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
  readonly body: unknown;
}

function raw(
  port: number,
  method: string,
  target: string,
  headers: Readonly<Record<string, string>>,
  body?: string,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, method, path: target, headers, setHost: false, timeout: 30_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text) as unknown;
          } catch {
            parsed = undefined;
          }
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text,
            body: parsed,
          });
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`${method} ${target} timed out`)));
    request.on('error', reject);
    request.end(body);
  });
}

const describeRaw = (response: RawResponse): string =>
  `${response.status} ${response.text.slice(0, 400)}`;

/** Past the Host/Origin guard, a page asks whoever is not signed in to sign in. */
function expectSignInRedirect(response: RawResponse): void {
  expect([303, 307], describeRaw(response)).toContain(response.status);
  expect(response.headers.location).toMatch(/\/sign-in\?next=%2Fcoding$/);
}

function expectRefusal(response: RawResponse, status: 421 | 403, mentions: string): void {
  expect(response.status, describeRaw(response)).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.body).toEqual({
    error: { code: 'FORBIDDEN', message: expect.stringContaining(mentions) as string },
  });
}

const uploadBoundary = 'sbx-rebinding';
const uploadBody = [
  `--${uploadBoundary}`,
  'Content-Disposition: form-data; name="testCommand"',
  '',
  '["python3","-m","pytest"]',
  `--${uploadBoundary}--`,
  '',
].join('\r\n');
const uploadHeaders = {
  'content-type': `multipart/form-data; boundary=${uploadBoundary}`,
  'x-shadowbox-ui': '1',
};
const cancelBody = JSON.stringify({ taskId: missingTask });

describe('browser endpoints answer only to their own origin', () => {
  let dataDir: string;
  let server: ServerHandle | undefined;
  let port: number;
  let own: string;
  let token: string;

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-origin-'));
    token = await createToken(dataDir, ['agent'], { name: 'origin-agent' });
    server = await startServer({ dataDir });
    port = server.port;
    own = `127.0.0.1:${port}`;
  }, minutes(25));

  afterAll(async () => {
    await server?.kill().catch(() => server?.kill9());
    await rm(dataDir, { recursive: true, force: true });
  }, minutes(2));

  describe('DNS rebinding (forged Host) gets 421', () => {
    it('refuses a DNS-rebinding request (forged Host) to the home page', async () => {
      const response = await raw(port, 'GET', '/', { host: `evil.example:${port}` });
      expectRefusal(response, 421, `Host 'evil.example:${port}' is not this server's`);
    });

    it('refuses a DNS-rebinding request (forged Host) to the task list page', async () => {
      const response = await raw(port, 'GET', '/coding', { host: `evil.example:${port}` });
      expectRefusal(response, 421, `Host 'evil.example:${port}' is not this server's`);
    });

    it("refuses a DNS-rebinding request (forged Host) for the task list's RSC payload", async () => {
      const response = await raw(port, 'GET', '/coding?_rsc=x', {
        host: `evil.example:${port}`,
        rsc: '1',
      });
      expectRefusal(response, 421, 'evil.example');
    });

    it('refuses a DNS-rebinding request (forged Host) to a task page', async () => {
      const response = await raw(port, 'GET', `/coding/${missingTask}`, {
        host: `127.0.0.1.evil.example:${port}`,
      });
      expectRefusal(response, 421, `Host '127.0.0.1.evil.example:${port}'`);
    });

    it('refuses a DNS-rebinding request (forged Host) to the patch download', async () => {
      const response = await raw(port, 'GET', `/coding/${missingTask}/patch`, {
        host: `evil.example:${port}`,
      });
      expectRefusal(response, 421, 'evil.example');
    });

    it('refuses a DNS-rebinding tRPC query (forged Host) even with the UI header', async () => {
      const response = await raw(port, 'GET', '/api/trpc/tasks.list', {
        host: `evil.example:${port}`,
        'x-shadowbox-ui': '1',
      });
      expectRefusal(response, 421, `Host 'evil.example:${port}'`);
    });

    it('refuses a DNS-rebinding tRPC event stream (forged Host)', async () => {
      const input = encodeURIComponent(JSON.stringify({ taskId: missingTask }));
      const response = await raw(port, 'GET', `/api/trpc/tasks.events?input=${input}`, {
        host: `evil.example:${port}`,
        accept: 'text/event-stream',
      });
      expectRefusal(response, 421, 'evil.example');
    });

    it('refuses a DNS-rebinding tRPC mutation (forged Host, its own Origin)', async () => {
      const response = await raw(
        port,
        'POST',
        '/api/trpc/tasks.cancel',
        {
          host: `evil.example:${port}`,
          origin: `http://evil.example:${port}`,
          'content-type': 'application/json',
          'x-shadowbox-ui': '1',
        },
        cancelBody,
      );
      expectRefusal(response, 421, `Host 'evil.example:${port}'`);
    });

    it('refuses a DNS-rebinding archive upload (forged Host)', async () => {
      const response = await raw(
        port,
        'POST',
        '/api/uploads/tasks',
        { ...uploadHeaders, host: `evil.example:${port}`, origin: `http://evil.example:${port}` },
        uploadBody,
      );
      expectRefusal(response, 421, `Host 'evil.example:${port}'`);
    });

    it('refuses a loopback name at another port (a rebinding page on another local server)', async () => {
      const response = await raw(port, 'GET', '/coding', { host: `localhost:${port + 1}` });
      expectRefusal(response, 421, `Host 'localhost:${port + 1}'`);
    });

    it('refuses a forged Host hidden behind dot segments that look like /api/v1', async () => {
      const response = await raw(port, 'GET', '/api/v1/../../coding', {
        host: `evil.example:${port}`,
      });
      // Next resolves the dot segments before it matches the proxy: this is /coding.
      expectRefusal(response, 421, 'evil.example');
    });
  });

  describe('cross-origin state changes (foreign Origin) get 403', () => {
    it('refuses a cross-origin tRPC mutation (foreign Origin) with the right Host', async () => {
      const response = await raw(
        port,
        'POST',
        '/api/trpc/tasks.cancel',
        {
          host: own,
          origin: 'http://evil.example',
          'content-type': 'application/json',
          'x-shadowbox-ui': '1',
        },
        cancelBody,
      );
      expectRefusal(response, 403, "Origin 'http://evil.example' is not this server's");
    });

    it('refuses a tRPC mutation from an opaque origin (Origin: null)', async () => {
      const response = await raw(
        port,
        'POST',
        '/api/trpc/tasks.cancel',
        { host: own, origin: 'null', 'content-type': 'application/json', 'x-shadowbox-ui': '1' },
        cancelBody,
      );
      expectRefusal(response, 403, "Origin 'null'");
    });

    it('refuses a cross-origin archive upload (foreign Origin) with the right Host', async () => {
      const response = await raw(
        port,
        'POST',
        '/api/uploads/tasks',
        { ...uploadHeaders, host: own, origin: 'http://evil.example' },
        uploadBody,
      );
      expectRefusal(response, 403, "Origin 'http://evil.example'");
    });

    it('refuses a cross-site archive upload without Origin (Sec-Fetch-Site: cross-site)', async () => {
      const response = await raw(
        port,
        'POST',
        '/api/uploads/tasks',
        { ...uploadHeaders, host: own, 'sec-fetch-site': 'cross-site' },
        uploadBody,
      );
      expectRefusal(response, 403, 'a cross-site request');
    });
  });

  describe('its own origin and the token API still work', () => {
    it.each(['127.0.0.1', 'localhost', '[::1]'])(
      'lets a request for the task list page at %s:PORT through to the app (which asks to sign in)',
      async (name) => {
        const response = await raw(port, 'GET', '/coding', { host: `${name}:${port}` });
        expectSignInRedirect(response);
      },
    );

    it('lets a same-origin tRPC mutation through to the procedure (which wants a session)', async () => {
      const response = await raw(
        port,
        'POST',
        '/api/trpc/tasks.cancel',
        {
          host: `localhost:${port}`,
          origin: `http://localhost:${port}`,
          'content-type': 'application/json',
          'x-shadowbox-ui': '1',
        },
        cancelBody,
      );
      // Past the guard: the procedure's own check asks for a signed-in person.
      expect(response.status, describeRaw(response)).toBe(401);
      expect(response.text).toContain('UNAUTHENTICATED');
    });

    it('lets a same-origin archive upload through to the route (which wants a session)', async () => {
      const response = await raw(
        port,
        'POST',
        '/api/uploads/tasks',
        { ...uploadHeaders, host: own, origin: `http://${own}` },
        uploadBody,
      );
      expect(response.status, describeRaw(response)).toBe(401);
      expect(response.body).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    });

    it('keeps the custom header check: a same-origin tRPC query without it is still refused', async () => {
      const response = await raw(port, 'GET', '/api/trpc/tasks.list', { host: own });
      expect(response.status, describeRaw(response)).toBe(403);
      expect(response.text).toContain('x-shadowbox-ui');
    });

    it('still serves /api/v1/tasks to a bearer token under a forged Host (no Host check)', async () => {
      const response = await raw(port, 'GET', '/api/v1/tasks', {
        host: `evil.example:${port}`,
        authorization: `Bearer ${token}`,
      });
      expect(response.status, describeRaw(response)).toBe(200);
    });

    it('still refuses /api/v1/tasks without a token under a forged Host (401, not 421)', async () => {
      const response = await raw(port, 'GET', '/api/v1/tasks', { host: `evil.example:${port}` });
      expect(response.status, describeRaw(response)).toBe(401);
    });
  });
});

describe('SHADOWBOX_PUBLIC_URL names one more origin', () => {
  let dataDir: string;
  let server: ServerHandle | undefined;
  let port: number;
  const publicUrl = 'https://shadowbox.example.com';

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-origin-public-'));
    // Behind a reverse proxy: the browser reaches the server under a public name.
    server = await startServer({
      dataDir,
      env: { SHADOWBOX_PUBLIC_URL: publicUrl },
    });
    port = server.port;
  }, minutes(25));

  afterAll(async () => {
    await server?.kill().catch(() => server?.kill9());
    await rm(dataDir, { recursive: true, force: true });
  }, minutes(2));

  it("lets a request for the task list page under SHADOWBOX_PUBLIC_URL's host through", async () => {
    const response = await raw(port, 'GET', '/coding', { host: 'shadowbox.example.com' });
    expectSignInRedirect(response);
  });

  it("lets a tRPC mutation from SHADOWBOX_PUBLIC_URL's origin through (to the session check)", async () => {
    const response = await raw(
      port,
      'POST',
      '/api/trpc/tasks.cancel',
      {
        host: 'shadowbox.example.com',
        origin: publicUrl,
        'content-type': 'application/json',
        'x-shadowbox-ui': '1',
      },
      cancelBody,
    );
    expect(response.status, describeRaw(response)).toBe(401);
  });

  it('still refuses a DNS-rebinding request (forged Host) with a public URL set', async () => {
    const response = await raw(port, 'GET', '/coding', { host: 'evil.example' });
    expectRefusal(response, 421, "Host 'evil.example'");
    expect(response.text).not.toContain('shadowbox.example.com');
  });

  it('refuses the public host under the wrong scheme as Origin', async () => {
    const response = await raw(
      port,
      'POST',
      '/api/uploads/tasks',
      { ...uploadHeaders, host: 'shadowbox.example.com', origin: 'http://shadowbox.example.com' },
      uploadBody,
    );
    expectRefusal(response, 403, "Origin 'http://shadowbox.example.com'");
  });
});
