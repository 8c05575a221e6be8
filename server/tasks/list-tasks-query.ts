import { z } from 'zod';
import { taskStatuses } from '../engine/loop';
import { AppError } from '../errors/app-error';

/*
 * The task list's query (`GET /api/v1/tasks?…`, tRPC `tasks.list`): one schema for every
 * transport, and the opaque cursor that pages through it.
 */

export const listSortKeys = ['created', 'updated'] as const;
export type ListSort = (typeof listSortKeys)[number];

/** Which tasks: ordinary ones (the default), eval attempts (`shadowbox eval run`), or both. */
export const listScopes = ['tasks', 'evals', 'all'] as const;
export type ListScope = (typeof listScopes)[number];

/** Today's first page (no parameters) is the newest 100 by creation; callers rely on it. */
export const defaultListLimit = 100;
export const maxListLimit = 200;
export const maxSearchLength = 200;

const text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

export const listTasksQuerySchema = z.strictObject({
  /** Any of these statuses (REST: `status=a,b` or `status=a&status=b`). */
  status: z.array(z.enum(taskStatuses)).min(1).max(taskStatuses.length).readonly().optional(),
  /** The owner's username, as the list shows it. */
  owner: text(100).optional(),
  /** The team's name. */
  team: text(100).optional(),
  /** The Git URL or the archive's name, exactly as the task was created with. */
  source: text(2048).optional(),
  /** Words looked for in the title and the problem: case-insensitive, `%` and `_` literal. */
  q: text(maxSearchLength).optional(),
  /** Eval attempts stay out of the list unless asked for: `evals` (only them) or `all`. */
  scope: z.enum(listScopes).default('tasks'),
  /** Newest first by creation (the default, as before) or by last activity. */
  sort: z.enum(listSortKeys).default('created'),
  /** `nextCursor` of the previous page, with the same sort. */
  cursor: z.string().min(1).max(512).optional(),
  limit: z.int().min(1).max(maxListLimit).default(defaultListLimit),
});

export type ListTasksQuery = z.output<typeof listTasksQuerySchema>;
export type ListTasksQueryInput = z.input<typeof listTasksQuerySchema>;

/**
 * Where the next page starts: the last row's sort value and id (the id breaks ties between tasks
 * created in the same millisecond). A keyset, not an offset, so tasks created while someone pages
 * do not shift the pages after theirs: new tasks sort before the cursor and never reappear.
 */
export interface ListPosition {
  readonly sort: ListSort;
  readonly at: Date;
  readonly id: string;
}

const positionSchema = z.strictObject({
  s: z.enum(listSortKeys),
  t: z.int().min(0),
  i: z.string().min(1).max(100),
});

/** Opaque to callers (base64url JSON): they pass `nextCursor` back and never build one. */
export function encodeCursor(position: ListPosition): string {
  const payload = { s: position.sort, t: position.at.getTime(), i: position.id };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** INVALID_ARGUMENT naming `cursor` for anything this list did not give out for this sort. */
export function decodeCursor(cursor: string, sort: ListSort): ListPosition {
  const refused = (why: string) => new AppError('INVALID_ARGUMENT', `cursor: ${why}`);
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refused('not a cursor this list gave out; pass nextCursor back as it came');
  }
  const parsed = positionSchema.safeParse(payload);
  if (!parsed.success) {
    throw refused('not a cursor this list gave out; pass nextCursor back as it came');
  }
  if (parsed.data.s !== sort) {
    throw refused(`it pages the list sorted by ${parsed.data.s}, not by ${sort}`);
  }
  return { sort, at: new Date(parsed.data.t), id: parsed.data.i };
}

/**
 * The query checked, defaults filled in; INVALID_ARGUMENT naming each bad parameter
 * (`limit: Too big: expected number to be <=200`). Every transport's input comes through here.
 */
export function parseListTasksQuery(input: unknown): ListTasksQuery {
  const parsed = listTasksQuerySchema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.slice(0, 5).map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return `unknown parameter${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    }
    const name = issue.path.length === 0 ? 'query' : String(issue.path[0]);
    return `${name}: ${issue.message}`;
  });
  return fail(problems.join('; '), parsed.error.issues);
}

function fail(message: string, issues: readonly z.core.$ZodIssue[]): never {
  throw new AppError('INVALID_ARGUMENT', message, {
    details: {
      issues: issues.slice(0, 20).map((issue) => ({
        path: issue.path.map(String).join('.'),
        code: issue.code,
        message: issue.message,
      })),
    },
  });
}
