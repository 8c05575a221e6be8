import { z } from 'zod';
import type { BatchView } from '../../../batches/batch-api';
import { openSchema } from './open-schema';

/*
 * BatchView (the REST `GET /api/v1/batches/{id}` body) as `get_batch` declares it. The batch
 * services define their view as a TypeScript interface (server/batches/batch-api.ts), so this is
 * its schema for MCP; it is checked against the interface both ways at compile time: `satisfies`
 * below (every field the schema yields is the view's), and `get_batch`'s `run`, which must return
 * what the schema accepts (every field of the view is in the schema, with its type).
 */

const taskIds = (what: string) => z.array(z.string()).describe(what);

const lostSchema = z
  .array(z.object({ taskId: z.string(), tests: z.array(z.string()) }))
  .describe("a member's own fixed tests that fail in the combination");

const memberSchema = z.object({
  taskId: z.string(),
  title: z.string(),
  position: z.int().describe('0-based order in which members are applied'),
  headCommit: z.string().describe('the approved commit taken in'),
  diffSha256: z.string().describe("the member's approved diff's SHA-256"),
  fixed: taskIds('the tests the member fixed on its own'),
  dropped: z
    .object({ by: z.string(), at: z.string() })
    .nullable()
    .describe('who took the member out, and when; it is then not applied'),
});

const conflictSchema = z
  .object({
    a: z.string(),
    b: z.string(),
    files: z.array(
      z.object({
        path: z.string(),
        hunks: z.array(z.string()).describe('the conflicting regions as git marks them, capped'),
      }),
    ),
  })
  .describe('two members (task ids) whose changes do not merge, and where');

const trialSchema = z
  .object({
    members: taskIds('the members applied together, in batch order'),
    verdict: z.enum(['passes', 'breaks', 'unrun']),
    broken: taskIds('tests passing at the baseline that fail in the combination'),
    lost: lostSchema,
    passed: z.int(),
    failed: z.int(),
    note: z.string().nullable().describe('why there is no verdict, or what else is worth saying'),
    outputTail: z.string().describe("the run's output tail"),
  })
  .describe('one combination tested');

const culpritSchema = z
  .object({
    members: taskIds('these members together (one alone, a pair, or more) break …'),
    broken: z.array(z.string()),
    lost: lostSchema,
  })
  .describe('what the bisection found');

const pushSchema = z.object({
  remote: z.string(),
  branch: z.string(),
  commit: z.string(),
  by: z.string(),
  at: z.string(),
});

const serviceBatchView = z.object({
  id: z.string(),
  status: z
    .enum(['conflicts', 'queued', 'running', 'passed', 'failed', 'error', 'approved', 'rejected'])
    .describe(
      'conflicts: drop members until no pair conflicts; queued/running: being tested; passed: ' +
        'the combined diff waits for review; failed: see culprits; error: see error; ' +
        "approved/rejected: a reviewer's verdict",
    ),
  sourceUrl: z.string(),
  baseCommit: z.string(),
  hostTaskId: z.string().describe('the member whose worktree the combined tree runs over'),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  members: z.array(memberSchema),
  conflicts: z.array(conflictSchema),
  trials: z.array(trialSchema),
  culprits: z.array(culpritSchema),
  error: z.string().nullable(),
  diff: z
    .object({ sha256: z.string(), bytes: z.int() })
    .nullable()
    .describe('the combined diff under review (REST `GET /api/v1/batches/{id}/diff`)'),
  review: z
    .object({
      verdict: z.enum(['approve', 'reject']),
      sha256: z.string(),
      by: z.string(),
      at: z.string(),
    })
    .nullable(),
  pushes: z.array(pushSchema),
  can: z
    .object({ drop: z.boolean(), review: z.boolean(), push: z.boolean() })
    .describe('what the caller may do now'),
}) satisfies z.ZodType<BatchView>;

/** `get_batch`'s structured result, with open objects (a field added later fails no client). */
export const batchViewSchema = openSchema(serviceBatchView);
