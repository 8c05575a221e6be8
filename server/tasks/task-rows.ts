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
  };
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
    cases: (run.cases as TestCase[] | null) ?? [],
    tests,
    disqualified: run.disqualified,
    outputTail: run.outputTail,
    error: run.error,
  };
  const green =
    tests === null
      ? isPass({ ...summary, index: 0, changedLines: 0 })
      : run.disqualified === null && run.error === null;
  return { ...summary, green };
}
