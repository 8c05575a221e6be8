'use client';

import { usernameClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';

/**
 * better-auth's client for `/api/auth/*` (server/auth/auth.ts): sign-in with a username and a
 * password, sign-out. It talks to the page's own origin, so the session cookie is this site's.
 */
export const authClient = createAuthClient({
  basePath: '/api/auth',
  plugins: [usernameClient()],
});

/** What a refused sign-in (or sign-out) says: the server's message, or its status. */
export function authErrorMessage(
  error: { readonly status?: number; readonly message?: string | undefined } | null,
): string {
  if (error === null) return 'something went wrong';
  const message = error.message?.trim();
  if (error.status === 429) {
    return message === undefined || message === ''
      ? 'Too many sign-in attempts: wait a minute and try again.'
      : `Too many sign-in attempts: ${message}`;
  }
  if (message !== undefined && message !== '') return message;
  return error.status === undefined
    ? 'the server could not be reached'
    : `the server answered ${error.status}`;
}
