import { AppError } from '../errors/app-error';
import type { TaskSourceInput } from './task-api';

/** The longest title kept; longer ones are refused, made ones cut. */
export const maxTitleChars = 200;
/** The problem statement's cap (the issue's text, Markdown). */
export const maxProblemBytes = 64 * 1024;

/**
 * The title a task gets when its creator gives none, so every client that never sent one still
 * gets a task list people can read: the repository's name with the ref it named
 * (`uuid @ v1.6.0`), or the archive's file name. The migration that added titles gave existing
 * rows the same.
 */
export function titleFromSource(source: TaskSourceInput): string {
  if (source.kind === 'archive') return source.name.slice(0, maxTitleChars);
  let name = source.url;
  try {
    name = new URL(source.url).pathname;
  } catch {
    // Not a URL the policy would have admitted; the text is still a name.
  }
  const repository = (name.replace(/\/+$/, '').split('/').at(-1) ?? name).replace(/\.git$/, '');
  const ref = source.ref === undefined || source.ref === '' ? '' : ` @ ${source.ref}`;
  return `${repository === '' ? source.url : repository}${ref}`.slice(0, maxTitleChars);
}

/** What the task is for, checked: a one-line title, a Markdown problem, an https issue link. */
export interface TaskPurpose {
  readonly title: string;
  readonly problem: string;
  readonly issueUrl: string | null;
}

// Control characters (Unicode's Cc), and line and paragraph separators: a title is one line.
const unprintable = /[\p{Cc}\u2028\u2029]/u;

export function checkTaskPurpose(input: {
  readonly source: TaskSourceInput;
  readonly title?: string | undefined;
  readonly problem?: string | undefined;
  readonly issueUrl?: string | undefined;
}): TaskPurpose {
  const title = input.title?.trim() ?? '';
  if (input.title !== undefined && (title === '' || title.length > maxTitleChars)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `title must hold 1 to ${maxTitleChars} characters, got ${title.length}`,
    );
  }
  if (unprintable.test(title)) {
    throw new AppError('INVALID_ARGUMENT', 'title must be one line of printable text');
  }
  const problem = input.problem ?? '';
  const bytes = Buffer.byteLength(problem, 'utf8');
  if (bytes > maxProblemBytes) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `problem may hold at most ${maxProblemBytes} bytes (64 KB), got ${bytes}`,
    );
  }
  return {
    title: title === '' ? titleFromSource(input.source) : title,
    problem,
    issueUrl: input.issueUrl === undefined ? null : checkIssueUrl(input.issueUrl),
  };
}

/** An https link to the issue, shown and never fetched: anything else could be a script URL. */
function checkIssueUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError(
      'INVALID_ARGUMENT',
      `issueUrl must be an https:// URL, got ${JSON.stringify(value.slice(0, 100))}`,
    );
  }
  if (
    url.protocol !== 'https:' ||
    url.username !== '' ||
    url.password !== '' ||
    value.length > 2048
  ) {
    throw new AppError(
      'INVALID_ARGUMENT',
      'issueUrl must be an https:// URL of at most 2048 characters, without credentials',
    );
  }
  return url.toString();
}
