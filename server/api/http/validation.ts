import type { z } from 'zod';
import { AppError } from '../../errors/app-error';

const maxIssuesInMessage = 5;
const maxIssuesInDetails = 20;

/** Parses `value` with `schema`; refuses it with INVALID_ARGUMENT naming every problem found. */
export function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  subject: string,
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalidInput(result.error.issues, subject);
}

export function invalidInput(issues: readonly z.core.$ZodIssue[], subject: string): AppError {
  const described = issues.map((issue) => ({
    path: formatPath(issue.path),
    code: issue.code,
    message: describeIssue(issue),
  }));
  const shown = described
    .slice(0, maxIssuesInMessage)
    .map(({ path, message }) => `${path === '' ? subject : path}: ${message}`);
  const more = described.length - shown.length;
  const message = `${shown.join('; ')}${more > 0 ? ` (and ${more} more)` : ''}`;
  return new AppError('INVALID_ARGUMENT', message, {
    details: { issues: described.slice(0, maxIssuesInDetails) },
  });
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const names = issue.keys.map((key) => JSON.stringify(key)).join(', ');
    return `unknown field${issue.keys.length === 1 ? '' : 's'} ${names}`;
  }
  return issue.message;
}

/** `["hypotheses", 0, "edits", 2, "path"]` → `hypotheses[0].edits[2].path`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}
