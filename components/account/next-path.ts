/**
 * Where to go after signing in: a path on this site, never another site. `next` comes from the
 * query string, so anyone can write a link with it. The check runs on the path as a browser will
 * finally read it, not on the text given: `/.//evil.example` only becomes `//evil.example` (another
 * host) once its dot segment is removed, and `%2F`, `%5C`, tabs and newlines are all ways to smuggle
 * a second slash or a backslash past a check on the raw text. Anything doubtful goes to /coding.
 */
export const defaultNextPath = '/coding';

const probeOrigin = 'http://next.invalid';
const maxNextLength = 2048;

/** A control character, a blank, DEL or a backslash. */
function hasUnsafeCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code <= 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

/** Percent-decoded until nothing changes (a few rounds at most); null when malformed. */
function fullyDecoded(text: string): string | null {
  let current = text;
  for (let round = 0; round < 4; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null;
}

/** `//`, a dot segment, or anything unsafe once decoded: a path that could mean another host. */
function isDoubtfulPath(pathname: string): boolean {
  const decoded = fullyDecoded(pathname);
  if (decoded === null || hasUnsafeCharacter(decoded)) return true;
  if (decoded.includes('//')) return true;
  return decoded.split('/').some((segment) => segment === '.' || segment === '..');
}

export function safeNextPath(next: string | null | undefined): string {
  if (typeof next !== 'string' || next === '' || next.length > maxNextLength) {
    return defaultNextPath;
  }
  if (!next.startsWith('/') || next.startsWith('//')) return defaultNextPath;
  // Control characters and blanks let a URL parser drop or reinterpret parts of it.
  if (hasUnsafeCharacter(next)) return defaultNextPath;
  const pathname = next.split(/[?#]/, 1)[0] ?? '';
  if (isDoubtfulPath(pathname)) return defaultNextPath;
  let url: URL;
  try {
    url = new URL(next, probeOrigin);
  } catch {
    return defaultNextPath;
  }
  if (url.origin !== probeOrigin) return defaultNextPath;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Checked again after the URL parser's own normalisation: it must still be one local path.
  if (!path.startsWith('/') || path.startsWith('//') || isDoubtfulPath(url.pathname)) {
    return defaultNextPath;
  }
  // Back to the sign-in or set-up page would only ask again.
  if (/^\/(?:sign-in|setup)(?:[/?#]|$)/.test(path)) return defaultNextPath;
  return path;
}

/** `/sign-in?next=<path>`, for pages that need someone signed in. */
export function signInPath(next: string): string {
  return `/sign-in?next=${encodeURIComponent(safeNextPath(next))}`;
}
