import { isPass, type TestDelta } from '../engine/shadow';
import type { TestCase } from '../engine/parsers';
import type { Prisma } from '../db/client';
import { AppError } from '../errors/app-error';
import {
  type LoopSource,
  type RunSummary,
  isIterationStatus,
  isTaskStatus,
  type IterationStatus,
  type TaskStatus,
} from '../engine/loop';

/*
 * Between the task tables' rows and the engine's values, both ways: the task store writes and
 * reads runs through these, the services and views read statuses and sources through them.
 */

export const json = (value: unknown): Prisma.InputJsonValue => value as Prisma.InputJsonValue;

export function statusOf(value: string): TaskStatus {
  if (!isTaskStatus(value)) throw new AppError('INTERNAL', `unknown task status '${value}'`);
  return value;
}

/** A stored iteration status, checked against the lifecycle (the column is a free string). */
export function iterationStatusOf(value: string): IterationStatus {
  if (!isIterationStatus(value)) {
    throw new AppError('INTERNAL', `unknown iteration status '${value}'`);
  }
  return value;
}

export function sourceOf(task: {
  sourceKind: string;
  sourceUrl: string | null;
  sourceRef: string | null;
  archiveName: string | null;
}): LoopSource {
  return task.sourceKind === 'git'
    ? { kind: 'git', url: task.sourceUrl ?? '', ref: task.sourceRef }
    : { kind: 'archive', name: task.archiveName ?? 'archive' };
}

export function runColumns(
  command: readonly string[],
  mode: string,
  run: Omit<RunSummary, 'green'>,
) {
  return {
    argv: json(command),
    mode,
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: Math.round(run.durationMs),
    passed: run.passed,
    failed: run.failed,
    skipped: run.skipped,
    parsed: run.parsed,
    buildFailed: run.buildFailed,
    ...(run.tests === null ? {} : { tests: json(run.tests) }),
    disqualified: run.disqualified,
    outputTail: run.outputTail,
    error: run.error,
    readAs: run.readAs ?? null,
  };
}

/**
 * The `cases` column of a run: its tests, or, where the runner named only its failures, those
 * (as failed cases: fewer than the run's tests, which is how `runSummaryOf` tells them apart).
 * Readers of failing ids (baseline failures, known-failure offers) read either alike.
 */
export const storedCases = (run: Pick<RunSummary, 'cases' | 'failing'>): Prisma.InputJsonValue =>
  json(
    run.cases.length > 0
      ? run.cases
      : (run.failing ?? []).map((id): TestCase => ({ id, status: 'failed' })),
  );

/** The most a hypothesis run's kept tests may take as JSON text (about 12,000 tests). */
export const maxKeptCasesBytes = 1024 * 1024;

/**
 * The `cases` column of a hypothesis run that is not its iteration's winner: kept for the compare
 * matrix. Up to `maxKeptCasesBytes` of JSON, the whole list; beyond it, its failures only (as
 * `storedCases` writes them, which readers tell apart by count); beyond that, nothing (null, as
 * runs recorded before every hypothesis run kept its tests). The winner's list is kept whole:
 * it is the next iteration's reference.
 */
export function keptCasesColumn(run: Pick<RunSummary, 'cases' | 'failing'>): {
  cases?: Prisma.InputJsonValue;
} {
  const all = storedCases(run);
  if (JSON.stringify(all).length <= maxKeptCasesBytes) return { cases: all };
  const failing =
    run.cases.length > 0
      ? run.cases.filter((c) => c.status === 'failed').map((c) => c.id)
      : (run.failing ?? []);
  const failures = storedCases({ cases: [], failing });
  return JSON.stringify(failures).length <= maxKeptCasesBytes ? { cases: failures } : {};
}

/** `storedCases` back: a complete list is `cases`; a list of failures only is `failing`. */
function casesOf(
  stored: unknown,
  counts: { passed: number; failed: number; skipped: number },
): Pick<RunSummary, 'cases' | 'failing'> {
  const cases = (stored as TestCase[] | null) ?? [];
  const total = counts.passed + counts.failed + counts.skipped;
  if (cases.length === total || cases.length === 0) return { cases };
  const failedOnly = cases.every((c) => c.status === 'failed');
  return failedOnly && cases.length === counts.failed
    ? { cases: [], failing: cases.map((c) => c.id) }
    : { cases: [] };
}

export function runSummaryOf(run: {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
  passed: number;
  failed: number;
  skipped: number;
  parsed: boolean;
  buildFailed: boolean;
  cases: unknown;
  tests: unknown;
  disqualified: string | null;
  outputTail: string;
  error: string | null;
  readAs?: string | null;
}): RunSummary {
  const tests = (run.tests as TestDelta | null) ?? null;
  const summary = {
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
    passed: run.passed,
    failed: run.failed,
    skipped: run.skipped,
    parsed: run.parsed,
    buildFailed: run.buildFailed,
    ...casesOf(run.cases, run),
    tests,
    disqualified: run.disqualified,
    outputTail: run.outputTail,
    error: run.error,
    ...(run.readAs === undefined || run.readAs === null ? {} : { readAs: run.readAs }),
  };
  const green =
    tests === null
      ? isPass({ ...summary, index: 0, changedLines: 0 })
      : run.disqualified === null && run.error === null;
  return { ...summary, green };
}
