import { z } from 'zod';
import { AppError } from '../../errors/app-error';
import { hypothesisSchema } from '../../engine/shadow';

/** Body size caps of the JSON endpoints. */
export const bodyLimits = {
  /** Hypotheses carry whole files. */
  hypotheses: 16 * 1024 * 1024,
  /** A review carries up to 200 comments (each at most 20,000 characters). */
  review: 16 * 1024 * 1024,
  /** Everything else is a handful of small fields. */
  small: 1024 * 1024,
} as const;

/** An argv: what runs, without a shell. `name` is what messages call it. */
const argvSchema = (name: string, example: string) =>
  z
    .array(
      z
        .string()
        .min(1, 'an argument may not be empty')
        .max(4096, 'an argument may hold at most 4096 characters'),
      `${name} must be an array of strings (argv), e.g. ${example}`,
    )
    .min(1, `${name} needs at least the program to run`)
    .max(64, `${name} may hold at most 64 arguments`);

export const testCommandSchema = argvSchema('testCommand', '["pytest","-q"]');

export const buildCommandSchema = argvSchema('buildCommand', '["cmake","--build","build"]');

/** Left out: detected from the tree; `[]`: no setup. The command policy checks each one. */
export const setupCommandsSchema = z
  .array(
    argvSchema('a setup command', '["npm","ci"]'),
    'setupCommands must be an array of commands, each an array of strings (argv), e.g. [["npm","ci"]]',
  )
  .max(16, 'setupCommands may hold at most 16 commands');

export const knownFailuresSchema = z
  .array(
    z
      .string()
      .min(1, 'a test id may not be empty')
      .max(1000, 'a test id may hold at most 1000 characters'),
    'knownFailures must be an array of test ids, e.g. ["tests/test_net.py::test_download"]',
  )
  .max(1000, 'knownFailures may list at most 1000 tests');

/** `POST /api/v1/tasks/{id}/known-failures`: tests of the task's `knownFailureOffer`. */
export const acceptKnownFailuresBodySchema = z.strictObject({
  ids: knownFailuresSchema.min(1, 'name at least one test to accept as a known failure'),
});

/** The fields shared by the JSON and the multipart forms of `POST /api/v1/tasks`. */
export const createTaskFieldsSchema = z.strictObject({
  gitUrl: z.string().min(1, 'gitUrl may not be empty').max(2048).optional(),
  ref: z.string().min(1, 'ref may not be empty').max(255).optional(),
  testCommand: testCommandSchema,
  /** The service checks the rest (one line, 200 characters; 64 KB; https) and names the field. */
  title: z.string().max(1000).optional(),
  problem: z
    .string()
    .max(256 * 1024)
    .optional(),
  issueUrl: z.string().max(4096).optional(),
  maxIterations: z.int().min(1).max(10).default(3),
  hypothesesPerIteration: z.int().min(1).max(16).default(3),
  /** How long an iteration waits for hypotheses; the service names the range when refused. */
  hypothesisWaitSecs: z.int().min(1).max(3600).optional(),
  fixer: z.enum(['external', 'llm']).optional(),
  allowTestEdits: z.boolean().optional(),
  maxTokens: z.int().min(1).optional(),
  /**
   * Caps of each sandboxed run (MB, processes, MB, files); each defaults to the server's, which
   * is also the most a task may ask (the task service refuses more, naming the ceiling).
   */
  maxMemoryMb: z.int().min(16).max(1_048_576).optional(),
  maxPids: z.int().min(8).max(4_194_304).optional(),
  maxDiskMb: z.int().min(1).max(16_777_216).optional(),
  maxInodes: z.int().min(100).max(1_000_000_000).optional(),
  plan: z
    .array(
      z.strictObject({
        title: z.string().min(1).max(200),
        scope: z.string().max(2000).optional(),
        gates: z.array(testCommandSchema).max(10),
      }),
    )
    .max(50)
    .optional(),
  setupCommands: setupCommandsSchema.optional(),
  buildCommand: buildCommandSchema.optional(),
  knownFailures: knownFailuresSchema.optional(),
  /** A team the creator belongs to: its members see and act on the task with their team role. */
  team: z.string().min(1, 'team may not be empty').max(64).optional(),
});

export type CreateTaskFields = z.output<typeof createTaskFieldsSchema>;

export const submitHypothesesBodySchema = z.strictObject({
  hypotheses: z
    .array(hypothesisSchema)
    .min(1, 'send at least one hypothesis')
    .max(16, 'send at most 16 hypotheses at once'),
});

export const reviewBodySchema = z.strictObject({
  verdict: z.enum(['approve', 'reject']),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hexadecimal characters'),
  comment: z.string().max(10_000).optional(),
});

const taskIdPattern = /^[a-z0-9]{20,40}$/;

/** Task ids are cuids; anything else cannot name a task. */
export function parseTaskId(id: string): string {
  if (!taskIdPattern.test(id)) {
    throw new AppError('NOT_FOUND', `no task ${JSON.stringify(id.slice(0, 64))}`);
  }
  return id;
}

const sha256Schema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hexadecimal characters');

const commentBody = z
  .string()
  .trim()
  .min(1, 'a comment may not be empty')
  .max(20_000, 'a comment may hold at most 20,000 characters');

const lineNumber = (name: string) =>
  z.int(`${name} must be a line number`).min(1, `${name} must be a line number from 1`);

/** Lines of one side of one file of the diff: what a thread is anchored to. */
export const lineRangeSchema = z.strictObject({
  path: z.string().min(1, 'path may not be empty').max(4096),
  side: z.enum(['new', 'old'], { error: 'side must be "new" (the changed file) or "old"' }),
  startLine: lineNumber('startLine'),
  endLine: lineNumber('endLine'),
});

/** `POST /api/v1/tasks/{id}/reviews`: one review, bound to the hash the reviewer saw. */
export const submitReviewBodySchema = z.strictObject({
  verdict: z.enum(['comment', 'request_changes', 'approve'], {
    error: 'verdict must be "comment", "request_changes" or "approve"',
  }),
  sha256: sha256Schema,
  summary: z.string().max(20_000, 'a summary may hold at most 20,000 characters').optional(),
  comments: z
    .array(lineRangeSchema.extend({ body: commentBody }))
    .max(200, 'send at most 200 comments in one review')
    .optional(),
});

/** `POST …/threads/{threadId}/comments`. */
export const threadCommentBodySchema = z.strictObject({ body: commentBody });

/** Dismissing a standing request for changes. */
export const dismissReviewBodySchema = z.strictObject({
  reason: z.string().trim().min(1, 'say why the request is dismissed').max(2000),
});

/** A draft: a new thread's comment at a range, or a reply to a thread. */
export const draftBodySchema = z.union([
  lineRangeSchema.extend({ sha256: sha256Schema, body: commentBody }),
  z.strictObject({ sha256: sha256Schema, threadId: z.string().min(1).max(64), body: commentBody }),
]);

const cuidPattern = /^[a-z0-9]{20,40}$/;

/** Thread, review and draft ids are cuids; anything else names nothing. */
export function parseRecordId(id: string, what: 'thread' | 'review' | 'draft'): string {
  if (!cuidPattern.test(id)) {
    throw new AppError('NOT_FOUND', `no ${what} ${JSON.stringify(id.slice(0, 64))}`);
  }
  return id;
}
