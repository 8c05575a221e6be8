import os from 'node:os';
import pLimit from 'p-limit';
import {
  junitReportPaths,
  parseJUnitXml,
  parseTestOutput,
  runnerFromCommand,
  sumTestCounts,
  type RunnerName,
  type TestCounts,
} from '../parsers';
import { discardEvents, type EventSink } from '../ports';
import { defaultRunLimits } from '../sandbox/run-limits';
import { applyHypothesis } from './apply-hypothesis';
import type { Execution, HypothesisExecutor } from './executor';
import type { PreparedHypothesis } from './hypothesis';
import { hypothesisErrorText, prepareHypotheses } from './prepare-hypotheses';
import { buildStepFailed, withBuildStep } from './build-step';
import { disqualification, rank } from './rank';
import { sameTreeAs, treeKey } from './same-tree';
import { compareTests } from './test-delta';
import type { ShadowEvent } from './shadow-events';
import { validateRequest, type ShadowRunRequest } from './shadow-request';
import type { HypothesisOutcome, ShadowRunReport } from './shadow-report';

export type { ShadowRunRequest };

export interface ShadowRunDeps {
  readonly executor: HypothesisExecutor;
  readonly events?: EventSink<ShadowEvent>;
}

const defaultTimeoutMs = 10 * 60 * 1000;

/**
 * JUnit reports the command wrote are more exact than its console; else parse the output. A
 * failed build step means no test ran, whatever the output says.
 */
function countTests(
  runner: RunnerName | 'auto',
  execution: Execution,
  built: boolean,
  output: string,
): TestCounts {
  if (built && buildStepFailed(execution.process.exitCode, output)) {
    return { passed: 0, failed: 0, skipped: 0, parsed: true, tests: [], buildFailed: true };
  }
  const fromReports = sumTestCounts(...execution.reports.map(parseJUnitXml));
  return fromReports.parsed ? fromReports : parseTestOutput(runner, output);
}

/** The most output kept whole for the parsers; beyond it they read the bounded tail. */
const maxParsedBytes = 32 * 1024 * 1024;

/**
 * A run's whole output, for the parsers: the tail a run keeps (64 KB) drops the test names of any
 * large suite, and with them the test-by-test verdict. Past `maxParsedBytes` it gives up (null).
 */
class ParsedOutput {
  private lines: string[] | null = [];
  private bytes = 0;

  push(line: string): void {
    if (this.lines === null) return;
    this.bytes += line.length + 1;
    if (this.bytes > maxParsedBytes) this.lines = null;
    else this.lines.push(line);
  }

  /** null past the cap, or when the executor streamed no lines (its tail is then all there is). */
  text(): string | null {
    return this.lines === null || this.lines.length === 0 ? null : this.lines.join('\n');
  }
}

/** The outcome of a hypothesis that never produced a run: it failed, for `error`. */
function failedOutcome(name: string, changedLines: number, error: string): HypothesisOutcome {
  return {
    name,
    exitCode: null,
    signal: null,
    timedOut: false,
    durationMs: 0,
    passed: 0,
    failed: 0,
    skipped: 0,
    parsed: false,
    buildFailed: false,
    cases: [],
    tests: null,
    disqualified: error,
    changedLines,
    outputTail: '',
    error,
  };
}

function problemOf(execution: Execution): string | null {
  const { process: p } = execution;
  if (execution.problem !== null) return execution.problem;
  if (p.spawnError !== null) return `the command could not be started: ${p.spawnError}`;
  if (p.cancelled) return 'cancelled';
  return null;
}

/**
 * Runs every hypothesis against the workspace in its own shadow, ranks the outcomes and, when asked
 * and there is a winner, writes the winner into the workspace.
 */
export async function shadowRun(
  request: ShadowRunRequest,
  deps: ShadowRunDeps,
): Promise<ShadowRunReport> {
  await validateRequest(request);
  const events: EventSink<ShadowEvent> = deps.events ?? discardEvents;
  const { executor } = deps;
  const { prepared, refused } = await prepareHypotheses(request.workspace, request.hypotheses);
  const runner = request.runner ?? runnerFromCommand(request.command);
  const reportPaths = junitReportPaths(request.command);
  const parallel = executor.parallelSafe ? (request.parallel ?? os.availableParallelism()) : 1;
  events.emit({
    type: 'shadow.started',
    mode: executor.mode,
    command: request.command,
    hypotheses: request.hypotheses.map((h) => h.name),
  });

  const limits = { ...defaultRunLimits, ...request.limits };
  const { buildCommand, reference } = request;
  const command =
    buildCommand === undefined ? request.command : withBuildStep(buildCommand, request.command);
  const judging = { allowMissing: request.allowMissing ?? false };
  const limit = pLimit(parallel);
  const execute = async (
    hypothesis: PreparedHypothesis,
    output: ParsedOutput,
  ): Promise<Execution | string> => {
    try {
      return await executor.execute({
        workspace: request.workspace,
        hypothesis,
        command,
        inWorkspace: request.inWorkspace ?? false,
        cwd: request.cwd ?? '.',
        env: request.env ?? {},
        timeoutMs: request.timeoutMs ?? defaultTimeoutMs,
        limits,
        tailBytes: request.tailBytes ?? 64 * 1024,
        reportPaths,
        onLine: (line) => {
          output.push(line);
          events.emit({ type: 'hypothesis.output', name: hypothesis.name, line });
        },
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
    } catch (error) {
      // Whatever went wrong in this one shadow fails this one hypothesis, never the whole run.
      if (request.signal?.aborted === true) return 'cancelled';
      const paths = hypothesis.changes.map((c) => c.path);
      return `the shadow could not be prepared: ${hypothesisErrorText(error, request.workspace, paths)}`;
    }
  };
  const runOne = async (hypothesis: PreparedHypothesis): Promise<HypothesisOutcome> => {
    events.emit({ type: 'hypothesis.started', name: hypothesis.name });
    const output = new ParsedOutput();
    const execution = await execute(hypothesis, output);
    if (typeof execution === 'string') {
      return failedOutcome(hypothesis.name, hypothesis.changedLines, execution);
    }
    const counts = countTests(
      runner,
      execution,
      buildCommand !== undefined,
      output.text() ?? execution.process.output.text,
    );
    const { process: p } = execution;
    const evidence = { ...counts, cases: counts.tests };
    const outcome = {
      name: hypothesis.name,
      exitCode: p.exitCode,
      signal: p.signal,
      timedOut: p.timedOut,
      durationMs: p.durationMs,
      passed: counts.passed,
      failed: counts.failed,
      skipped: counts.skipped,
      parsed: counts.parsed,
      buildFailed: counts.buildFailed,
      cases: counts.tests,
      tests: reference === undefined ? null : compareTests(reference, evidence),
      changedLines: hypothesis.changedLines,
      outputTail: p.output.text,
      error: problemOf(execution),
    };
    return { ...outcome, disqualified: disqualification({ ...outcome, index: 0 }, judging) };
  };
  // Refused at preparation: reported like any other, without a run.
  const notRun = refused.map((r) => {
    const outcome = failedOutcome(r.name, 0, r.error);
    events.emit({ type: 'hypothesis.finished', result: outcome });
    return { ...outcome, index: r.index };
  });
  // A hypothesis whose tree an earlier one makes runs once, as that one: it takes that outcome
  // under its own name, and is started and finished (events) when that one finishes.
  const twins = sameTreeAs(prepared.map((h) => ({ name: h.name, key: treeKey(h.changes) })));
  const runs = new Map<string, Promise<HypothesisOutcome>>();
  const outcomeOf = (hypothesis: PreparedHypothesis, i: number): Promise<HypothesisOutcome> => {
    const twin = twins[i] ?? null;
    const earlier = twin === null ? undefined : runs.get(twin);
    if (twin === null || earlier === undefined) {
      const run = limit(async () => {
        const outcome = await runOne(hypothesis);
        events.emit({ type: 'hypothesis.finished', result: outcome });
        return outcome;
      });
      runs.set(hypothesis.name, run);
      return run;
    }
    return earlier.then((shared) => {
      const outcome = { ...shared, name: hypothesis.name, sameTreeAs: twin };
      events.emit({ type: 'hypothesis.started', name: hypothesis.name });
      events.emit({ type: 'hypothesis.finished', result: outcome });
      return outcome;
    });
  };
  // allSettled: a fault in one run must not leave the others running unobserved.
  const settled = await Promise.allSettled(
    prepared.map(async (hypothesis, i) => ({
      ...(await outcomeOf(hypothesis, i)),
      index: hypothesis.index,
    })),
  );
  const outcomes = [
    ...settled.map((result) => {
      // What is left is a bug of the runner itself (counting, events), not of a hypothesis.
      if (result.status === 'rejected') throw result.reason;
      return result.value;
    }),
    ...notRun,
  ];

  const demoted = (name: string): boolean => request.demote?.has(name) ?? false;
  const ranked = rank(outcomes, judging)
    .ranked.map((o) => ({ ...o, disqualified: request.demote?.get(o.name) ?? o.disqualified }))
    .sort((a, b) => Number(demoted(a.name)) - Number(demoted(b.name)));
  const top = ranked[0];
  const winner = top !== undefined && top.disqualified === null && !demoted(top.name) ? top : null;
  events.emit({
    type: 'shadow.ranked',
    winner: winner?.name ?? null,
    order: ranked.map((r) => r.name),
  });
  const winning = winner === null ? undefined : prepared.find((h) => h.index === winner.index);
  let applied = false;
  if (request.apply === true && winning !== undefined && !(request.signal?.aborted ?? false)) {
    await applyHypothesis(request.workspace, winning);
    applied = true;
    events.emit({
      type: 'shadow.applied',
      name: winning.name,
      files: winning.changes.map((c) => c.path),
    });
  }
  return {
    mode: executor.mode,
    winner: winning?.name ?? null,
    winnerDiff: winning?.diff ?? null,
    hypotheses: ranked.map(({ index: _index, ...result }, i) => ({ ...result, rank: i + 1 })),
    applied,
  };
}
