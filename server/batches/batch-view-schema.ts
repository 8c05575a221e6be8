import { z } from 'zod';
import type { BatchPushView, BatchView } from './batch-api';

/*
 * The batch views as schemas, defined once for the transports: tRPC checks its outputs with them
 * and MCP derives `get_batch`'s output schema from them (with open objects). They are checked
 * against batch-api.ts's interfaces both ways at compile time (the types at the end), so a field
 * added to the contract must be added here. The descriptions are what MCP clients read.
 */

/** The views' arrays are readonly; so are these. */
const list = <T extends z.ZodType>(item: T) => z.array(item).readonly();

const taskIds = (what: string) => list(z.string()).describe(what);

const lostSchema = list(z.object({ taskId: z.string(), tests: list(z.string()) })).describe(
  "a member's own fixed tests that fail in the combination",
);

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
    files: list(
      z.object({
        path: z.string(),
        hunks: list(z.string()).describe('the conflicting regions as git marks them, capped'),
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
    broken: list(z.string()),
    lost: lostSchema,
  })
  .describe('what the bisection found');

export const batchPushViewSchema = z.object({
  remote: z.string(),
  branch: z.string(),
  commit: z.string(),
  by: z.string(),
  at: z.string(),
});

export const batchViewSchema = z.object({
  id: z.string(),
  status: z
    .enum(['conflicts', 'queued', 'running', 'passed', 'failed', 'error', 'approved', 'rejected'])
    .describe(
      'conflicts: drop members until no pair conflicts; queued/running: being tested; passed: ' +
        'the combined diff waits for review; failed: see culprits; error: see error; ' +
        "approved/rejected: a reviewer's verdict",
    ),
  sourceKind: z
    .enum(['git', 'archive'])
    .describe("a Git URL's tasks, or uploads of one archive's contents (those cannot be pushed)"),
  sourceUrl: z.string().describe("the Git URL, or the archive's name"),
  baseCommit: z.string(),
  hostTaskId: z.string().describe('the member whose worktree the combined tree runs over'),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  members: list(memberSchema),
  conflicts: list(conflictSchema),
  trials: list(trialSchema),
  culprits: list(culpritSchema),
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
  pushes: list(batchPushViewSchema),
  can: z
    .object({ drop: z.boolean(), review: z.boolean(), push: z.boolean() })
    .describe('what the caller may do now'),
});

/** The combined diff as the page reads it. */
export const batchDiffSchema = z.object({ text: z.string(), sha256: z.string() });

// Compiles only while the schemas and the contract's types agree, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Agrees<T extends true> = T;
export type BatchViewSchemaAgrees = Agrees<Same<z.infer<typeof batchViewSchema>, BatchView>>;
export type BatchPushSchemaAgrees = Agrees<
  Same<z.infer<typeof batchPushViewSchema>, BatchPushView>
>;
