import type { NextRequest } from 'next/server';
import { refuseForeignBrowserRequest } from './server/api/browser-origin';

/**
 * Every browser endpoint answers only to this server's own Host (and, for state changes, Origin):
 * the rules and why are in server/api/browser-origin.ts. Returning nothing lets the request on.
 */
export function proxy(request: NextRequest): Response | undefined {
  return refuseForeignBrowserRequest(request) ?? undefined;
}

export const config = {
  matcher: [
    /*
     * Everything but:
     * - /api/v1 and /api/mcp: bearer tokens, not browsers;
     * - /api/uploads/tasks: Next buffers (and truncates at 10 MB) the body of any request the
     *   proxy sees, so the upload runs the same guard in its route handler instead;
     * - build assets and public/monaco: static files that reveal nothing.
     * The tRPC route and the patch download run the guard again in their handlers.
     */
    '/((?!api/v1(?:/|$)|api/mcp(?:/|$)|api/uploads/tasks(?:/|$)|_next/static/|monaco/).*)',
  ],
};
