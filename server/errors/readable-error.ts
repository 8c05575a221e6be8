import { isAppError } from './app-error';

/** Longest error text stored on a task, an iteration or a hypothesis. */
export const maxReadableErrorLength = 1000;

// A stack frame: "    at fn (/srv/app/.next/server/chunks/1.js:4:5)", "at async Promise.all (index 0)".
const frameLine = /^\s*at\s/;

// An absolute path or URL as error messages spell them: up to a quote, bracket, comma or space.
const absolutePath = /(?<![\w.~:/-])(?:file:\/\/)?\/[^\s'"`()<>,;]*/g;
const webpackUrl = /webpack-internal:[^\s'"`()<>,;]*/g;

// Where the server's own code lives: the bundle, the dependencies, the sources.
const ownCodeSegment = /\/(?:\.next|node_modules|server)\//;

/**
 * Makes text fit to store and show as an error: one line, without stack frames and without paths
 * into the server's own code (bundles, dependencies, sources), which say nothing to a user and tell
 * an attacker where things are. Text that is already readable comes back unchanged.
 */
export function readableText(text: string): string {
  const line = text
    .split(/\r?\n/)
    .filter((l) => !frameLine.test(l))
    .join(' ')
    .replace(webpackUrl, '…')
    .replace(absolutePath, (p) => (ownCodeSegment.test(p) ? '…' : p))
    // The plain class names `describeError` puts first ("Error: ", "AppError: ") say nothing.
    .replace(/(^|: )(?:(?:App)?Error: )+/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  if (line === '') return 'unknown error';
  return line.length > maxReadableErrorLength
    ? `${line.slice(0, maxReadableErrorLength - 1)}…`
    : line;
}

/**
 * The text to store for an error: an AppError's message (written for people), otherwise the
 * message made readable (see `readableText`); never a stack.
 */
export function readableError(error: unknown): string {
  if (isAppError(error)) return readableText(error.message);
  if (error instanceof Error) {
    const generic = error.name === 'Error' || error.name === '';
    const message = error.message.trim();
    if (message === '') return readableText(error.name);
    return readableText(generic ? message : `${error.name}: ${message}`);
  }
  if (typeof error === 'string') return readableText(error);
  return readableText(
    error === null || typeof error !== 'object' ? String(error) : safeJson(error),
  );
}

function safeJson(value: object): string {
  try {
    return JSON.stringify(value);
  } catch {
    return 'an error that cannot be shown';
  }
}
