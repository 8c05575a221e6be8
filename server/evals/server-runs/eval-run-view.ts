import { z } from 'zod';
import { renderRunsHtml } from '../report/report-html';
import { instanceRows } from '../report/report-model';
import { runFileSchema, type RunFile } from '../run/run-file';
import type { EvalRunMeta } from './eval-run-files';

// What the /coding/evals page reads of a run: its progress in the list, and in detail its
// summary, every attempt and the report (`eval report --html`, the strings escaped there).

/** running: in this process now; done: every attempt done; stopped: waits for the next start. */
export const evalRunStateSchema = z.enum(['running', 'done', 'stopped']);

export const evalRunProgressSchema = z.object({
  runId: z.string(),
  set: z.string(),
  owner: z.string(),
  model: z.string(),
  k: z.int(),
  parallel: z.int(),
  state: evalRunStateSchema,
  /** The fault that stopped it, if one did. */
  error: z.string().nullable(),
  instances: z.int(),
  instancesDone: z.int(),
  attempts: z.int(),
  attemptsDone: z.int(),
  resolved: z.int(),
  tokens: z.int(),
  costUsd: z.number(),
  startedAt: z.string(),
  updatedAt: z.string(),
});

export const evalRunListSchema = z.object({
  /** The model server runs use; null when the server has no LLM configured. */
  model: z.string().nullable(),
  runs: z.array(evalRunProgressSchema),
});

export const evalRunDetailSchema = z.object({
  progress: evalRunProgressSchema,
  summary: runFileSchema.shape.summary,
  instances: runFileSchema.shape.instances,
  rows: z.array(
    z.object({
      instanceId: z.string(),
      n: z.int(),
      c: z.int(),
      passAtK: z.number().nullable(),
      tokens: z.int(),
      costUsd: z.number(),
      durationMs: z.number(),
      iterations: z.int(),
      why: z.string().nullable(),
    }),
  ),
  /** A whole HTML page, every run string escaped: shown only in a sandboxed frame. */
  reportHtml: z.string(),
});

export type EvalRunProgress = z.infer<typeof evalRunProgressSchema>;
export type EvalRunList = z.infer<typeof evalRunListSchema>;
export type EvalRunDetail = z.infer<typeof evalRunDetailSchema>;

/** True when every instance has its k attempts done. */
export function isComplete(run: RunFile): boolean {
  return run.instances.every((i) => i.attempts.filter((a) => a.state === 'done').length >= run.k);
}

export function progressOf(run: RunFile, meta: EvalRunMeta, active: boolean): EvalRunProgress {
  const done = (i: RunFile['instances'][number]) => i.attempts.filter((a) => a.state === 'done');
  return {
    runId: run.runId,
    set: run.set,
    owner: meta.owner,
    model: run.model,
    k: run.k,
    parallel: meta.parallel,
    state: active ? 'running' : isComplete(run) ? 'done' : 'stopped',
    error: meta.error,
    instances: run.instances.length,
    instancesDone: run.instances.filter((i) => done(i).length >= run.k).length,
    attempts: run.instances.length * run.k,
    attemptsDone: run.summary.attempts,
    resolved: run.summary.resolved,
    tokens: run.summary.tokens,
    costUsd: run.summary.costUsd,
    startedAt: run.startedAt,
    updatedAt: run.updatedAt,
  };
}

export function detailOf(run: RunFile, meta: EvalRunMeta, active: boolean): EvalRunDetail {
  return {
    progress: progressOf(run, meta, active),
    summary: run.summary,
    instances: run.instances,
    rows: instanceRows(run),
    reportHtml: renderRunsHtml([run]),
  };
}
