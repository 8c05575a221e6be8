import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { describe, expect, it } from 'vitest';
import { config as proxyConfig } from '../../proxy';
import { browserOrigins } from '../auth/browser-origins';
import {
  browserOriginsFromEnv,
  checkBrowserRequest,
  refuseForeignBrowserRequest,
} from './browser-origin';

const local = browserOrigins({ port: 3000, publicUrl: null });
const published = browserOrigins({
  port: 3000,
  publicUrl: new URL('https://shadowbox.example.com'),
});

function request(method: string, headers: Record<string, string>) {
  return { method, headers: new Headers(headers) };
}

const get = (headers: Record<string, string>) => request('GET', headers);
const post = (headers: Record<string, string>) => request('POST', headers);

describe('the Host check (DNS rebinding)', () => {
  it.each(['evil.example:3000', '127.0.0.1.evil.example:3000', 'localhost.evil.example:3000'])(
    'refuses a forged Host %s with 421 and names it',
    (host) => {
      expect(checkBrowserRequest(get({ host }), local)).toEqual({
        ok: false,
        status: 421,
        message: expect.stringContaining(`Host '${host}' is not this server's`) as string,
      });
    },
  );

  it.each(['localhost:3001', '127.0.0.1:80', '127.0.0.1', '[::1]:30000'])(
    'refuses a loopback name at another port (%s)',
    (host) => {
      expect(checkBrowserRequest(get({ host }), local)).toMatchObject({ ok: false, status: 421 });
    },
  );

  it('refuses a request without a Host header', () => {
    expect(checkBrowserRequest(get({}), local)).toEqual({
      ok: false,
      status: 421,
      message: expect.stringMatching(
        /^A request without a Host header is not this server's/,
      ) as string,
    });
  });

  it('refuses another address of the machine: binding to 0.0.0.0 accepts no extra names', () => {
    expect(checkBrowserRequest(get({ host: '192.168.1.20:3000' }), local)).toMatchObject({
      status: 421,
      message: expect.stringContaining('SHADOWBOX_PUBLIC_URL') as string,
    });
  });

  it.each(['127.0.0.1:3000', 'localhost:3000', '[::1]:3000', 'LocalHost:3000'])(
    'accepts the loopback name %s at the server port',
    (host) => {
      expect(checkBrowserRequest(get({ host }), local)).toEqual({ ok: true });
    },
  );

  it("accepts SHADOWBOX_PUBLIC_URL's host, with or without its default port", () => {
    for (const host of ['shadowbox.example.com', 'shadowbox.example.com:443']) {
      expect(checkBrowserRequest(get({ host }), published)).toEqual({ ok: true });
    }
    expect(checkBrowserRequest(get({ host: 'shadowbox.example.com:3000' }), published)).toEqual(
      expect.objectContaining({ status: 421 }),
    );
    expect(checkBrowserRequest(get({ host: 'localhost:3000' }), published)).toEqual({ ok: true });
  });

  it("does not echo SHADOWBOX_PUBLIC_URL's host to a stranger", () => {
    const check = checkBrowserRequest(get({ host: 'evil.example' }), published);
    expect(check).toMatchObject({ status: 421 });
    expect(JSON.stringify(check)).not.toContain('shadowbox.example.com');
  });

  it('accepts the bare names when the server listens on port 80', () => {
    const onEighty = browserOrigins({ port: 80, publicUrl: null });
    expect(checkBrowserRequest(get({ host: 'localhost' }), onEighty)).toEqual({ ok: true });
    expect(checkBrowserRequest(get({ host: 'localhost:80' }), onEighty)).toEqual({ ok: true });
    expect(
      checkBrowserRequest(post({ host: 'localhost', origin: 'http://localhost' }), onEighty),
    ).toEqual({ ok: true });
  });
});

describe('the Origin check (state changes)', () => {
  const host = '127.0.0.1:3000';

  it('refuses a POST from a foreign Origin with 403 and names it', () => {
    expect(checkBrowserRequest(post({ host, origin: 'http://evil.example' }), local)).toEqual({
      ok: false,
      status: 403,
      message: expect.stringContaining(
        "Origin 'http://evil.example' is not this server's",
      ) as string,
    });
  });

  it('refuses the opaque Origin `null` (sandboxed frames, data: URLs)', () => {
    expect(checkBrowserRequest(post({ host, origin: 'null' }), local)).toMatchObject({
      ok: false,
      status: 403,
    });
  });

  it.each([
    'http://127.0.0.1:3001',
    'https://127.0.0.1:3000',
    'http://localhost',
    'http://127.0.0.1:3000.evil.example',
  ])('refuses the near miss %s', (origin) => {
    expect(checkBrowserRequest(post({ host, origin }), local)).toMatchObject({ status: 403 });
  });

  it.each(['PUT', 'PATCH', 'DELETE', 'post'])('checks %s like POST', (method) => {
    expect(
      checkBrowserRequest(request(method, { host, origin: 'http://evil.example' }), local),
    ).toMatchObject({ status: 403 });
  });

  it.each(['http://127.0.0.1:3000', 'http://localhost:3000', 'http://[::1]:3000'])(
    'accepts a POST from the same origin %s',
    (origin) => {
      expect(checkBrowserRequest(post({ host, origin }), local)).toEqual({ ok: true });
    },
  );

  it("accepts a POST from SHADOWBOX_PUBLIC_URL's origin", () => {
    const headers = { host: 'shadowbox.example.com', origin: 'https://shadowbox.example.com' };
    expect(checkBrowserRequest(post(headers), published)).toEqual({ ok: true });
    expect(
      checkBrowserRequest(post({ ...headers, origin: 'http://shadowbox.example.com' }), published),
    ).toMatchObject({ status: 403 });
  });

  it('refuses a POST without Origin that the browser marks cross-site or same-site', () => {
    for (const site of ['cross-site', 'same-site']) {
      expect(checkBrowserRequest(post({ host, 'sec-fetch-site': site }), local)).toEqual({
        ok: false,
        status: 403,
        message: expect.stringContaining(`a ${site} request`) as string,
      });
    }
  });

  it('lets a POST without Origin or fetch metadata through (curl; the UI header still applies)', () => {
    expect(checkBrowserRequest(post({ host }), local)).toEqual({ ok: true });
    expect(checkBrowserRequest(post({ host, 'sec-fetch-site': 'same-origin' }), local)).toEqual({
      ok: true,
    });
  });

  it.each(['GET', 'HEAD', 'OPTIONS'])(
    'allows %s with a foreign Origin at the right Host (reads are kept by Host and the UI header)',
    (method) => {
      const headers = { host, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' };
      expect(checkBrowserRequest(request(method, headers), local)).toEqual({ ok: true });
    },
  );

  it('checks the Host before the Origin', () => {
    const headers = { host: 'evil.example:3000', origin: 'http://evil.example:3000' };
    expect(checkBrowserRequest(post(headers), local)).toMatchObject({ status: 421 });
  });
});

describe('refuseForeignBrowserRequest', () => {
  it('answers a forged Host with 421 {"error":{"code":"FORBIDDEN","message"}}', async () => {
    const response = refuseForeignBrowserRequest(get({ host: 'evil.example:4100' }), {
      PORT: '4100',
    });
    expect(response?.status).toBe(421);
    expect(response?.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response?.json()).toEqual({
      error: {
        code: 'FORBIDDEN',
        message: expect.stringMatching(
          /^Host 'evil\.example:4100' is not this server's; the Shadowbox UI answers only at 127\.0\.0\.1:4100, localhost:4100, \[::1\]:4100 /,
        ) as string,
      },
    });
  });

  it('answers a foreign Origin with 403 FORBIDDEN', async () => {
    const response = refuseForeignBrowserRequest(
      post({ host: '127.0.0.1:4100', origin: 'http://evil.example' }),
      { PORT: '4100' },
    );
    expect(response?.status).toBe(403);
    expect(await response?.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it('lets a request to its own origin through (null)', () => {
    const ok = post({ host: '127.0.0.1:4100', origin: 'http://127.0.0.1:4100' });
    expect(refuseForeignBrowserRequest(ok, { PORT: '4100' })).toBeNull();
  });
});

describe('browserOriginsFromEnv', () => {
  it('reads PORT (default 3000) and SHADOWBOX_PUBLIC_URL through loadEnv', () => {
    expect([...browserOriginsFromEnv({}).hosts]).toEqual([
      '127.0.0.1:3000',
      'localhost:3000',
      '[::1]:3000',
    ]);
    const origins = browserOriginsFromEnv({
      PORT: '8080',
      HOST: '0.0.0.0',
      SHADOWBOX_PUBLIC_URL: 'http://Box.Lan:8080',
    });
    expect([...origins.hosts]).toEqual([
      '127.0.0.1:8080',
      'localhost:8080',
      '[::1]:8080',
      'box.lan:8080',
    ]);
    expect([...origins.origins]).toContain('http://box.lan:8080');
  });

  it('follows a change of PORT (next start sets it to the port it listens on)', () => {
    expect(browserOriginsFromEnv({ PORT: '3100' }).hosts.has('localhost:3100')).toBe(true);
    expect(browserOriginsFromEnv({ PORT: '3200' }).hosts.has('localhost:3100')).toBe(false);
  });

  it('fails on an invalid SHADOWBOX_PUBLIC_URL rather than accepting anything', () => {
    expect(() => browserOriginsFromEnv({ SHADOWBOX_PUBLIC_URL: 'evil.example' })).toThrow(
      /SHADOWBOX_PUBLIC_URL/,
    );
  });
});

describe("proxy.ts's matcher", () => {
  const runs = (url: string): boolean => unstable_doesMiddlewareMatch({ config: proxyConfig, url });

  it.each([
    '/',
    '/coding',
    '/coding/task_1',
    '/coding/task_1/patch',
    '/coding?_rsc=abc',
    '/api/trpc/tasks.list',
    '/api/trpc/tasks.cancel',
    '/api/v1x',
    '/api/mcpx',
    '/_next/data/build/coding.json',
  ])('guards %s', (url) => {
    expect(runs(url)).toBe(true);
  });

  it.each([
    '/api/v1',
    '/api/v1/tasks',
    '/api/v1/tasks/task_1/events',
    '/api/mcp',
    '/api/uploads/tasks',
    '/_next/static/chunks/main.js',
    '/monaco/vs/loader.js',
  ])('leaves %s to its own check', (url) => {
    expect(runs(url)).toBe(false);
  });
});
