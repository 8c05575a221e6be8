import { z } from 'zod';

/*
 * The compare matrix as every transport returns it (REST `GET /api/v1/tasks/{id}/compare`, tRPC
 * `tasks.compare`, MCP `compare_hypotheses`): one schema, so the three cannot drift.
 */

/**
 * One test in one column. `pass`, `fail`, `skipped`: what the run reported. `missing`: the run ran
 * tests but not this one. `not run`: the column's run ran no test at all (the build failed, the
 * run failed or was cancelled, the hypothesis never ran). `unknown`: the run ran, but which tests
 * did what is not known (it printed totals only, or its per-test results were not kept): never a
 * status guessed from totals.
 */
export const cellStatuses = ['pass', 'fail', 'missing', 'skipped', 'not run', 'unknown'] as const;
export type CellStatus = (typeof cellStatuses)[number];

/**
 * How a column's cells are known. `by test`: the run named every test. `derived`: recorded before
 * every hypothesis run kept its tests; read from its reference run's tests and its stored delta
 * (there `missing` means absent or newly skipped, and tests the delta does not name are
 * `unknown`). `failures only`: only the failing tests are named; the others are `unknown`.
 * `totals only`: the runner printed counts only; every cell is `unknown`. `unknown`: per-test
 * results were not kept, or the output could not be read. `not run`: no test ran.
 */
export const columnEvidence = [
  'by test',
  'derived',
  'failures only',
  'totals only',
  'unknown',
  'not run',
] as const;
export type ColumnEvidence = (typeof columnEvidence)[number];

const count = z.int().min(0);

export const compareColumnSchema = z.object({
  name: z.string().describe('"baseline", or the hypothesis name'),
  kind: z.enum(['baseline', 'hypothesis']),
  iteration: z.int().nullable().describe('the iteration of the hypothesis; null for the baseline'),
  /** For `compare cell`: the run the column shows; null when there is none. */
  runId: z.string().nullable(),
  verdict: z.string().nullable().describe('pending | winner | passed | failed | error'),
  rank: z.int().nullable(),
  winner: z.boolean(),
  /** The verdict's counts, against the run's reference (the baseline, or the checkpoint it built on). */
  fixed: count.nullable(),
  broken: count.nullable(),
  changedLines: z.int().nullable(),
  durationMs: z.number().nullable(),
  origin: z.string().nullable().describe('external | llm | human | scripted'),
  author: z.string().nullable().describe('who submitted it: "alice", "fixer:llm" …'),
  // No per-hypothesis LLM cost: spend is recorded per task (Task.costMicroUsd, `fixer.spent`
  // events), not per hypothesis, so a column cannot say what its own hypothesis cost.
  readAs: z.string().nullable().describe('how the results were read, in words'),
  basis: z.enum(['id', 'inferred', 'totals']).nullable().describe('how the delta was found'),
  totals: z.object({ passed: count, failed: count, skipped: count }).nullable(),
  evidence: z.enum(columnEvidence),
  note: z.string().nullable().describe('why cells are "not run" or "unknown", in words'),
});
export type CompareColumn = z.infer<typeof compareColumnSchema>;

export const compareRowSchema = z.object({
  test: z.string(),
  /** One per column, in column order (the baseline first). */
  cells: z.array(z.enum(cellStatuses)),
  /** Some hypothesis fails or lost this test where the baseline passed it. */
  broken: z.boolean(),
  /** Some hypothesis passes this test where the baseline failed it. */
  fixed: z.boolean(),
});
export type CompareRow = z.infer<typeof compareRowSchema>;

export const compareMatrixSchema = z.object({
  taskId: z.string(),
  /** The iteration compared; null: the whole task (every hypothesis of every iteration). */
  iteration: z.int().nullable(),
  /** How many iterations the task has (the picker's range). */
  iterations: count,
  columns: z.array(compareColumnSchema),
  /** One per test whose known status is not the same in every column, by test id. */
  rows: z.array(compareRowSchema),
});
export type CompareMatrix = z.infer<typeof compareMatrixSchema>;

/** One cell's output lines (`compare cell`), fetched apart so the matrix stays small. */
export const compareCellSchema = z.object({
  runId: z.string(),
  test: z.string(),
  /** Lines of the run's output about the test; empty when none were found. */
  lines: z.array(z.string()),
  /** Where the lines come from, or why there are none, in words. */
  source: z.string(),
  truncated: z.boolean(),
});
export type CompareCell = z.infer<typeof compareCellSchema>;

/** `?iteration=N` and the tools' `iteration`: 1-based; left out, the whole task. */
export const iterationNumberSchema = z
  .int('iteration must be a whole number')
  .min(1, 'iteration must be 1 or more')
  .max(1_000_000, 'iteration is too large');

/** A run of the task (a column's `runId`); runs ids are cuids, as task ids are. */
export const runIdSchema = z.string().regex(/^[a-z0-9]{20,40}$/, 'not a run id');

/** A test id as a column names it (ids are the runners' own; long parametrised ones exist). */
export const testIdSchema = z.string().min(1, 'give a test id').max(4096, 'test id is too long');
