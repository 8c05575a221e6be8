import { z } from 'zod';
import { testDeltaSchema } from './test-delta';

/**
 * The `shadowbox shadow-run --json` object (ShadowRunReport), as `shadow_run`'s structured result.
 * Loose objects: a field the engine adds later must not make a valid report fail validation.
 */
export const hypothesisResultSchema = z.looseObject({
  name: z.string(),
  rank: z.int().describe('1 for the best'),
  exitCode: z.int().nullable(),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number(),
  passed: z.int(),
  failed: z.int(),
  skipped: z.int(),
  parsed: z.boolean().describe('whether the test counts were parsed from the output'),
  buildFailed: z.boolean().describe('the code did not build: no test ran'),
  cases: z
    .array(z.looseObject({ id: z.string(), status: z.enum(['passed', 'failed', 'skipped']) }))
    .describe('each test the runner named, in its order; empty when it prints counts only'),
  tests: testDeltaSchema
    .nullable()
    .describe('against a reference run, when there is one; else null'),
  disqualified: z.string().nullable().describe('why it cannot win, in words; null for a pass'),
  changedLines: z.int(),
  outputTail: z.string().describe('the end of the output (the assertion that broke)'),
  error: z.string().nullable().describe('why the run cannot be trusted; null for a clean run'),
});

export const shadowRunReportSchema = z.looseObject({
  mode: z.enum(['overlay', 'inplace']),
  winner: z.string().nullable().describe('the best hypothesis if it passed, else null'),
  winnerDiff: z.string().nullable().describe("the winner's unified diff against the workspace"),
  hypotheses: z.array(hypothesisResultSchema).describe('best first'),
  applied: z.boolean().describe('always false: shadow_run never writes the workspace'),
});
