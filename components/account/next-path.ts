/**
 * Where to go after signing in: a path on this site, never another site. `next` comes from the
 * query string, so anyone can write a link with it; only a path that starts with one `/` (not
 * `//host` or `/\host`, which browsers read as another host) and stays on this origin is kept.
 */
export const defaultNextPath = '/coding';

const probeOrigin = 'http://next.invalid';

/** A control character, a blank, DEL or a backslash. */
function hasUnsafeCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code <= 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

export function safeNextPath(next: string | null | undefined): string {
  if (typeof next !== 'string' || next === '' || !next.startsWith('/')) return defaultNextPath;
  if (next.startsWith('//') || next.startsWith('/\\')) return defaultNextPath;
  // Control characters and blanks let a URL parser drop or reinterpret parts of it.
  if (hasUnsafeCharacter(next)) return defaultNextPath;
  let url: URL;
  try {
    url = new URL(next, probeOrigin);
  } catch {
    return defaultNextPath;
  }
  if (url.origin !== probeOrigin) return defaultNextPath;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Back to the sign-in or set-up page would only ask again.
  if (/^\/(?:sign-in|setup)(?:[/?#]|$)/.test(path)) return defaultNextPath;
  return path;
}

/** `/sign-in?next=<path>`, for pages that need someone signed in. */
export function signInPath(next: string): string {
  return `/sign-in?next=${encodeURIComponent(safeNextPath(next))}`;
}
