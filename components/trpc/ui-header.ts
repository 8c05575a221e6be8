/**
 * Sent with every call the UI makes; the server refuses browser calls without it (a cross-site form
 * cannot send a custom header). Same name as server/api/trpc/request-guard.ts.
 */
export const uiHeaders = { 'x-shadowbox-ui': '1' } as const;
