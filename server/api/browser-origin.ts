import { browserOrigins, type BrowserOrigins } from '../auth/browser-origins';
import { loadEnv, type EnvSource } from '../env';
import { jsonResponse } from './http/http-helpers';

/**
 * The browser endpoints (the pages, `/api/trpc`, the archive upload, the patch download) answer
 * only requests addressed to this server's own origin. The browser trusts a name, not an address:
 * a page on evil.example whose DNS answer is rebound to 127.0.0.1 is same-origin with itself and
 * can read and post to whatever answers on 127.0.0.1:PORT. Its requests still carry
 * `Host: evil.example:PORT` and, when they change something, `Origin: http://evil.example:PORT`,
 * which is what is checked here.
 *
 * The accepted names are the loopback ones at the port the server listens on, plus the host of
 * SHADOWBOX_PUBLIC_URL. The bind address (HOST) adds nothing: a server bound to 0.0.0.0 still
 * answers only to those names, and an operator who serves it on a LAN or behind a proxy sets
 * SHADOWBOX_PUBLIC_URL. Token-authenticated endpoints (`/api/v1`, `/api/mcp`) are not browser
 * endpoints and are not checked: a page cannot learn a token.
 */

export type BrowserRequestCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly status: 421 | 403; readonly message: string };

// RFC 9110: these must not change anything, so a foreign Origin on them is not an attack.
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request to a browser endpoint is addressed to this server and, if it changes
 * something, sent by a page of this server. */
export function checkBrowserRequest(
  request: { readonly method: string; readonly headers: Headers },
  allowed: BrowserOrigins,
): BrowserRequestCheck {
  const host = request.headers.get('host');
  if (host === null || !allowed.hosts.has(host.toLowerCase())) {
    const named = host === null ? 'A request without a Host header' : `Host ${quote(host)}`;
    return {
      ok: false,
      status: 421,
      message:
        `${named} is not this server's; the Shadowbox UI answers only at ${allowed.loopbackHosts.join(', ')} ` +
        'or the host of SHADOWBOX_PUBLIC_URL (set it to the address the browser uses, e.g. on a LAN or behind a proxy)',
    };
  }
  if (safeMethods.has(request.method.toUpperCase())) return { ok: true };
  const origin = request.headers.get('origin');
  if (origin !== null) {
    if (allowed.origins.has(origin)) return { ok: true };
    return {
      ok: false,
      status: 403,
      message: `Origin ${quote(origin)} is not this server's; only the Shadowbox UI's own pages may change anything here`,
    };
  }
  // No Origin (an old browser, or a privacy setting): the fetch metadata still tells cross-site
  // apart. `same-site` counts as foreign: it includes other ports on localhost.
  const site = request.headers.get('sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') {
    return {
      ok: false,
      status: 403,
      message: `a ${site} request (Sec-Fetch-Site) may not change anything here; only the Shadowbox UI's own pages may`,
    };
  }
  return { ok: true };
}

/** The answer to a refused request: `{"error":{"code":"FORBIDDEN","message"}}`, 421 or 403. */
export function refusalResponse(refusal: Extract<BrowserRequestCheck, { ok: false }>): Response {
  return jsonResponse({ error: { code: 'FORBIDDEN', message: refusal.message } }, refusal.status);
}

let cached: { key: string; origins: BrowserOrigins } | undefined;

/**
 * The origins from the environment (`loadEnv`'s PORT and SHADOWBOX_PUBLIC_URL). `next start` sets
 * PORT to the port it actually listens on before it serves anything (also for `--port`, also for
 * port 0), so the variable is the port the server sees. Recomputed only when those two change.
 */
export function browserOriginsFromEnv(source: EnvSource = process.env): BrowserOrigins {
  const key = `${source.PORT ?? ''}\n${source.SHADOWBOX_PUBLIC_URL ?? ''}`;
  if (cached?.key !== key) cached = { key, origins: browserOrigins(loadEnv(source)) };
  return cached.origins;
}

/**
 * The guard every browser endpoint runs first (proxy.ts, and again in the route handlers): the
 * refusal to send, or null when the request may go on.
 */
export function refuseForeignBrowserRequest(
  request: { readonly method: string; readonly headers: Headers },
  source: EnvSource = process.env,
): Response | null {
  const check = checkBrowserRequest(request, browserOriginsFromEnv(source));
  return check.ok ? null : refusalResponse(check);
}

function quote(value: string): string {
  return `'${value.slice(0, 100).replace(/[^\x20-\x7e]/g, '?')}'`;
}
