import { z } from 'zod';
import type { BatchPushView, BatchView } from '../../../../batches/batch-api';

/**
 * What the UI receives of a batch: server/batches/batch-api.ts's `BatchView`, field for field (an
 * output schema strips what it does not name, so a field added there must be added here; the
 * type checks below fail until it is).
 */

/** The views' arrays are readonly; so are these. */
const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();

const tests = list(z.string());
const lostSchema = list(z.object({ taskId: z.string(), tests }));

export const batchStatusSchema = z.enum([
  'conflicts',
  'queued',
  'running',
  'passed',
  'failed',
  'error',
  'approved',
  'rejected',
]);

export const batchPushViewSchema = z.object({
  remote: z.string(),
  branch: z.string(),
  commit: z.string(),
  by: z.string(),
  at: z.string(),
});

export const batchViewSchema = z.object({
  id: z.string(),
  status: batchStatusSchema,
  sourceUrl: z.string(),
  baseCommit: z.string(),
  hostTaskId: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  members: list(
    z.object({
      taskId: z.string(),
      title: z.string(),
      position: z.int(),
      headCommit: z.string(),
      diffSha256: z.string(),
      fixed: tests,
      dropped: z.object({ by: z.string(), at: z.string() }).nullable(),
    }),
  ),
  conflicts: list(
    z.object({
      a: z.string(),
      b: z.string(),
      files: list(z.object({ path: z.string(), hunks: list(z.string()) })),
    }),
  ),
  trials: list(
    z.object({
      members: list(z.string()),
      verdict: z.enum(['passes', 'breaks', 'unrun']),
      broken: tests,
      lost: lostSchema,
      passed: z.int(),
      failed: z.int(),
      note: z.string().nullable(),
      outputTail: z.string(),
    }),
  ),
  culprits: list(z.object({ members: list(z.string()), broken: tests, lost: lostSchema })),
  error: z.string().nullable(),
  diff: z.object({ sha256: z.string(), bytes: z.int() }).nullable(),
  review: z
    .object({
      verdict: z.enum(['approve', 'reject']),
      sha256: z.string(),
      by: z.string(),
      at: z.string(),
    })
    .nullable(),
  pushes: list(batchPushViewSchema),
  can: z.object({ drop: z.boolean(), review: z.boolean(), push: z.boolean() }),
});

export const batchDiffSchema = z.object({ text: z.string(), sha256: z.string() });

// Compiles only while the schemas and the contract's types agree, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Agrees<T extends true> = T;
export type BatchViewSchemaAgrees = Agrees<Same<z.infer<typeof batchViewSchema>, BatchView>>;
export type BatchPushSchemaAgrees = Agrees<
  Same<z.infer<typeof batchPushViewSchema>, BatchPushView>
>;
