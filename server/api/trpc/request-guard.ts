import { AppError } from '../../errors/app-error';

/**
 * The browser endpoints (tRPC, the archive upload, the patch download) carry no token: the UI
 * trusts whoever can reach the server, which listens on 127.0.0.1 unless told otherwise. What they
 * must refuse is another site driving the user's browser against them (CSRF):
 *
 * - every call that reads or changes something sends `x-shadowbox-ui: 1`. An HTML form, an <img> or
 *   a cross-site `fetch` without a CORS preflight cannot send a custom header, and the preflight is
 *   never answered;
 * - a browser that says the request is cross-site (`Sec-Fetch-Site`) is refused everywhere, which
 *   covers the event streams (EventSource cannot send headers) and downloads.
 *
 * Neither stops DNS rebinding, where the attacker's page *is* same-origin with itself: that is the
 * Host and Origin check of server/api/browser-origin.ts, which proxy.ts and the route handlers run
 * before anything here.
 *
 * The client sends the same header name (components/trpc/ui-header.ts): keep the two equal.
 */
export const uiHeaderName = 'x-shadowbox-ui';

/** `ui`: sent by our UI; `unmarked`: no UI header, not known to be cross-site (curl, EventSource). */
export type RequestOrigin = 'ui' | 'unmarked' | 'cross-site';

export function requestOrigin(headers: Headers): RequestOrigin {
  const site = headers.get('sec-fetch-site');
  // `none` is a navigation the user typed or bookmarked; `same-site` includes other ports.
  if (site !== null && site !== 'same-origin' && site !== 'none') return 'cross-site';
  return headers.get(uiHeaderName) === '1' ? 'ui' : 'unmarked';
}

export function refuseCrossSite(origin: RequestOrigin): void {
  if (origin === 'cross-site') {
    throw new AppError('FORBIDDEN', 'cross-site requests to the Shadowbox UI are refused');
  }
}

export function requireUi(origin: RequestOrigin): void {
  refuseCrossSite(origin);
  if (origin !== 'ui') {
    throw new AppError(
      'FORBIDDEN',
      `this endpoint serves the Shadowbox web UI and needs the header "${uiHeaderName}: 1"; agents use /api/v1 with a token`,
    );
  }
}
