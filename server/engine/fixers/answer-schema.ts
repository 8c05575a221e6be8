import { z } from 'zod';
import type { ThreadReply } from '../loop/fixer';
import { hypothesisSchema, type Hypothesis } from '../shadow/hypothesis';
import { checkHypothesisPaths, pathProblem } from '../shadow/hypothesis-paths';
import type { Validation } from './model-caller';

/** The most replies an answer may hold (one per review thread). */
export const maxReplies = 100;
/** The longest reply, in characters (trimmed). */
export const maxReplyChars = 4000;

/** A reply to one review thread, as the model answers it. */
export const threadReplySchema = z
  .object({
    threadId: z
      .string()
      .min(1, 'must name a review thread')
      .max(100, 'is not a review thread id (at most 100 characters)'),
    body: z
      .string()
      .trim()
      .min(1, 'must say something')
      .max(
        maxReplyChars,
        `is too long: a reply may hold at most ${maxReplyChars} characters, say it more briefly`,
      ),
  })
  .strict();

/**
 * A fix as the model must answer it: exactly the hypothesis format (strict, same limits), with
 * every path valid, none twice or nested in another, and at least one change; in a review round,
 * optionally `replies` to the review threads (the hypothesis format itself has no such field).
 */
export const fixAnswerSchema = hypothesisSchema
  .extend({
    replies: z
      .array(threadReplySchema)
      .max(maxReplies, `holds more than ${maxReplies} replies: answer each thread once`)
      .optional(),
  })
  .superRefine((answer, ctx) => {
    if (answer.edits.length === 0 && answer.delete.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['edits'],
        message: 'is empty: the answer changes no file',
      });
      return;
    }
    const paths: { path: string; at: (string | number)[] }[] = [
      ...answer.edits.map((edit, i) => ({ path: edit.path, at: ['edits', i, 'path'] })),
      ...answer.delete.map((path, i) => ({ path, at: ['delete', i] })),
    ];
    let valid = true;
    for (const { path, at } of paths) {
      const problem = pathProblem(path);
      if (problem === null) continue;
      valid = false;
      ctx.addIssue({ code: 'custom', path: at, message: `path '${path}' ${problem}` });
    }
    if (!valid) return;
    try {
      checkHypothesisPaths(answer);
    } catch (error) {
      ctx.addIssue({
        code: 'custom',
        message: error instanceof Error ? error.message : 'bad paths',
      });
    }
  });

/** A valid fix: the hypothesis (without replies) and the replies kept. */
export interface FixAnswer extends Hypothesis {
  /**
   * Present when the answer had `replies`: those naming a thread of `threadIds`, the first per
   * thread, in the answer's order.
   */
  readonly replies?: readonly ThreadReply[];
}

/** A review as the model must answer it. There is no approving verdict. */
export const reviewAnswerSchema = z
  .object({
    verdict: z.enum(['looks_good', 'concerns', 'unsure']),
    comment: z.string().trim().min(1, 'must say something'),
  })
  .strict();

export type ReviewAnswer = z.output<typeof reviewAnswerSchema>;

/**
 * The model's text → a fix. Replies naming a thread that is not in `threadIds` (the review round's
 * threads; none outside a review round) are dropped, not an error, as are second replies to a
 * thread; an answer without replies is a valid fix.
 */
export function parseFixAnswer(
  text: string,
  threadIds: ReadonlySet<string> = new Set(),
): Validation<FixAnswer> {
  const parsed = parseAnswer(text, fixAnswerSchema);
  if (!parsed.ok) return parsed;
  const { replies, ...hypothesis } = parsed.value;
  if (replies === undefined) return { ok: true, value: hypothesis };
  const answered = new Set<string>();
  const kept: ThreadReply[] = [];
  for (const reply of replies) {
    if (!threadIds.has(reply.threadId) || answered.has(reply.threadId)) continue;
    answered.add(reply.threadId);
    kept.push({ threadId: reply.threadId, body: reply.body });
  }
  return { ok: true, value: { ...hypothesis, replies: kept } };
}

export function parseReviewAnswer(text: string): Validation<ReviewAnswer> {
  return parseAnswer(text, reviewAnswerSchema);
}

// Servers without a JSON mode often wrap the object in a Markdown fence anyway.
const fenced = /^\s*```[A-Za-z]*[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```\s*$/;

/** JSON text → a value of `schema`, or what is wrong with it in one line the model can act on. */
export function parseAnswer<T>(text: string, schema: z.ZodType<T>): Validation<T> {
  const body = fenced.exec(text)?.[1] ?? text;
  if (body.trim() === '') return { ok: false, error: 'the answer is empty' };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `the answer is not a JSON object (${bounded(why, 200)})` };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: bounded(formatIssues(parsed.error.issues), 1500) };
}

export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const where = issue.path
        .map((key, i) =>
          typeof key === 'number' ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`,
        )
        .join('');
      return where === '' ? issue.message : `${where}: ${issue.message}`;
    })
    .join('; ');
}

function bounded(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
