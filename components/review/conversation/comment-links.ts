/**
 * Links in comments lead only to http(s) pages: `javascript:`, `data:`, `file:` and relative
 * links (which would act on this server with the reader's session) are shown as text.
 */
export function safeHref(href: string | null | undefined): string | null {
  if (typeof href !== 'string' || href.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}
