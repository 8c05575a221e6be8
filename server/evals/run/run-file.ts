import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { AppError } from '../../errors/app-error';
import { setRates } from './pass-at-k';
import { wilsonInterval, type Interval } from './wilson';

// RUN.json: an eval run's record, rewritten after every attempt so a crashed run resumes from
// it. Its summary and per-attempt fields are a contract (issue 28); the rest is extra.

const attemptSchema = z.object({
  /** 0-based: the instance's attempt number. */
  attempt: z.int().min(0),
  /** running: its task exists and is awaited on resume, never created again. */
  state: z.enum(['running', 'done']),
  resolved: z.boolean(),
  /** null only when the task could not be created (the reason is in `why`). */
  taskId: z.string().nullable(),
  tokens: z.int().min(0),
  costUsd: z.number().min(0),
  durationMs: z.number().min(0),
  iterations: z.int().min(0),
  why: z.string(),
});

const intervalSchema = z.object({ low: z.number(), high: z.number() });

const summarySchema = z.object({
  instances: z.int(),
  attempts: z.int(),
  resolved: z.int(),
  'pass@1': z.number(),
  'pass@k': z.number(),
  'pass^k': z.number(),
  tokens: z.int(),
  costUsd: z.number(),
  durationMs: z.number().optional(),
  wilson: z
    .object({ 'pass@1': intervalSchema, 'pass@k': intervalSchema, 'pass^k': intervalSchema })
    .optional(),
});

export const runFileSchema = z.object({
  summary: summarySchema,
  /** The tasks' eval scope (Task.evalRunId): the same across resumes. */
  runId: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
  set: z.string(),
  /** 'llm', or 'external' for an agent: its tokens and cost are the task's (0: not the agent's). */
  fixer: z.string(),
  /** How an external agent was driven ('mcp'); absent for the LLM fixer. */
  agent: z.string().optional(),
  model: z.string(),
  k: z.int().min(1),
  maxIterations: z.int().min(1),
  startedAt: z.string(),
  updatedAt: z.string(),
  instances: z.array(z.object({ instance_id: z.string(), attempts: z.array(attemptSchema) })),
});

export type RunFile = z.infer<typeof runFileSchema>;
export type RunAttempt = z.infer<typeof attemptSchema>;
export type RunSummary = z.infer<typeof summarySchema>;

/** A run's file as read back; null when there is none yet. */
export async function readRunFile(file: string): Promise<RunFile | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return parseRunFile(text, file);
}

export function parseRunFile(text: string, source: string): RunFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AppError('INVALID_ARGUMENT', `${source} is not JSON: ${(error as Error).message}`);
  }
  const parsed = runFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      'INVALID_ARGUMENT',
      `${source} is not an eval run: ${issue?.path.join('.') || 'the file'} ${issue?.message ?? ''}`.trim(),
    );
  }
  return parsed.data;
}

/**
 * Writes the whole file next to itself and renames it into place: a crash leaves the old file
 * or the new one, never half of one.
 */
export async function writeRunFile(file: string, run: RunFile): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(run, null, 2)}\n`, { flag: 'wx' });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The summary of the attempts done so far (running ones count only for their spend). */
export function summarize(run: Pick<RunFile, 'instances' | 'k'>): RunSummary {
  const done = run.instances.map((i) => i.attempts.filter((a) => a.state === 'done'));
  const all = run.instances.flatMap((i) => i.attempts);
  const tallies = done.map((attempts) => ({
    n: attempts.length,
    c: attempts.filter((a) => a.resolved).length,
  }));
  const rates = setRates(tallies, run.k);
  const attempts = tallies.reduce((sum, t) => sum + t.n, 0);
  const resolved = tallies.reduce((sum, t) => sum + t.c, 0);
  const started = tallies.filter((t) => t.n > 0).length;
  const complete = tallies.filter((t) => t.n >= run.k);
  const round = (x: number): number => Math.round(x * 1e6) / 1e6;
  const roundInterval = (i: Interval): Interval => ({ low: round(i.low), high: round(i.high) });
  return {
    instances: run.instances.length,
    attempts,
    resolved,
    'pass@1': round(rates.passAt1),
    'pass@k': round(rates.passAtK),
    'pass^k': round(rates.passHatK),
    tokens: all.reduce((sum, a) => sum + a.tokens, 0),
    costUsd: round(all.reduce((sum, a) => sum + a.costUsd, 0)),
    durationMs: done.flat().reduce((sum, a) => sum + a.durationMs, 0),
    // pass@1 over attempts; pass^k over complete instances; pass@k (an average of estimates,
    // not a count) by the instances it amounts to.
    wilson: {
      'pass@1': roundInterval(wilsonInterval(resolved, attempts)),
      'pass@k': roundInterval(
        wilsonInterval(Math.min(started, Math.round(rates.passAtK * started)), started),
      ),
      'pass^k': roundInterval(
        wilsonInterval(complete.filter((t) => t.c === t.n).length, complete.length),
      ),
    },
  };
}
