import os from 'node:os';
import pLimit from 'p-limit';
import path from 'node:path';
import { isTestPath } from '../review/test-edits/test-paths';
import { junitReportPaths, runnerFromCommand } from '../parsers';
import { goJsonLineText, goJsonText } from '../parsers/go-json-text';
import { discardEvents, type EventSink } from '../ports';
import { defaultRunLimits } from '../sandbox/run-limits';
import { applyHypothesis } from './apply-hypothesis';
import type { Execution, HypothesisExecutor } from './executor';
import type { PreparedHypothesis } from './hypothesis';
import { hypothesisErrorText, prepareHypotheses } from './prepare-hypotheses';
import { withBuildStep } from './build-step';
import { addReporter, type ReporterPlan } from './machine-reporter';
import { readResults } from './read-results';
import { disqualification, rank } from './rank';
import { sameTreeAs, treeKey } from './same-tree';
import { compareTests } from './test-delta';
import { planCanaries, type CanaryPlacement } from './canaries';
import { judgeCanaries } from './canary-verdict';
import type { ShadowEvent } from './shadow-events';
import { validateRequest, type ShadowRunRequest } from './shadow-request';
import type { CanaryNote, HypothesisOutcome, ShadowRunReport } from './shadow-report';

export type { ShadowRunRequest };

export interface ShadowRunDeps {
  readonly executor: HypothesisExecutor;
  readonly events?: EventSink<ShadowEvent>;
}

const defaultTimeoutMs = 10 * 60 * 1000;

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
    readAs: 'not run',
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
  const judging = {
    allowMissing: request.allowMissing ?? false,
    reviewRound: request.reviewRound ?? false,
  };
  const limit = pLimit(parallel);
  // Every run in a shadow gets canaries of its own; a run in the workspace itself cannot.
  const placeCanaries = async (hypothesis: PreparedHypothesis): Promise<CanaryPlacement> => {
    if (executor.mode !== 'overlay') {
      return { placed: false, reason: 'in-place runs have no canaries: they run in the workspace' };
    }
    if ((request.inWorkspace ?? false) && hypothesis.changes.length === 0) {
      return { placed: false, reason: 'the run is in the workspace itself, not in a shadow' };
    }
    try {
      return await planCanaries({
        workspace: request.workspace,
        cwd: request.cwd ?? '.',
        command: request.command,
        runner,
        changes: hypothesis.changes,
        knownTests: reference?.cases.map((c) => c.id) ?? [],
      });
    } catch (error) {
      return { placed: false, reason: `the canaries could not be placed: ${String(error)}` };
    }
  };
  // A reporter of our own (machine-reporter.ts), where the run's files can be read back: not in
  // place, where the run writes the workspace itself. New names for every run.
  const planReporter = (command: readonly string[]): ReporterPlan =>
    executor.mode === 'overlay' && junitReportPaths(request.command).length === 0
      ? addReporter(command, runner, request.workspace)
      : { command, reporter: null };
  const execute = async (
    hypothesis: PreparedHypothesis,
    output: ParsedOutput,
    canaries: CanaryPlacement,
    reporting: ReporterPlan,
  ): Promise<Execution | string> => {
    const own = reporting.command;
    const decode = reporting.reporter?.kind === 'stream';
    try {
      return await executor.execute({
        workspace: request.workspace,
        hypothesis,
        command: buildCommand === undefined ? own : withBuildStep(buildCommand, own),
        ...(canaries.placed ? { canaries: canaries.plan.changes } : {}),
        ...(reporting.reporter?.kind === 'file' ? { addedReports: [reporting.reporter.path] } : {}),
        inWorkspace: request.inWorkspace ?? false,
        cwd: request.cwd ?? '.',
        env: request.env ?? {},
        timeoutMs: request.timeoutMs ?? defaultTimeoutMs,
        limits,
        tailBytes: request.tailBytes ?? 64 * 1024,
        reportPaths,
        onLine: (line) => {
          output.push(line);
          // go test -json is read as events and shown as the text they encode.
          const shown = decode ? goJsonLineText(line) : line;
          if (shown !== null)
            events.emit({ type: 'hypothesis.output', name: hypothesis.name, line: shown });
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
    const placement = await placeCanaries(hypothesis);
    const reporting = planReporter(placement.placed ? placement.plan.command : request.command);
    const execution = await execute(hypothesis, output, placement, reporting);
    if (typeof execution === 'string') {
      return failedOutcome(hypothesis.name, hypothesis.changedLines, execution);
    }
    const {
      counts: read,
      forged,
      readAs,
    } = readResults({
      runner,
      execution,
      built: buildCommand !== undefined,
      output: output.text() ?? execution.process.output.text,
      added: reporting.reporter,
      base: path.join(request.workspace, request.cwd ?? '.'),
    });
    const { process: p } = execution;
    const checked = placement.placed && execution.canaried === true ? placement.plan : null;
    const ranToEnd = !p.timedOut && p.signal === null && problemOf(execution) === null;
    const verdict =
      checked === null
        ? { counts: read, exitCode: p.exitCode, tampered: null }
        : judgeCanaries(checked, read, p.exitCode, ranToEnd);
    const { counts } = verdict;
    const tampered = forged ?? verdict.tampered;
    const canaries: CanaryNote =
      checked !== null
        ? { passing: checked.passing, failing: checked.failing, exitCode: p.exitCode }
        : { skipped: placement.placed ? 'the executor did not stage them' : placement.reason };
    const evidence = { ...counts, cases: counts.tests };
    // A change to a test could pass a renamed test off as a fixed one: no inference then.
    const testEdits = hypothesis.changes.some((c) => isTestPath(c.path));
    const shownTail =
      reporting.reporter?.kind === 'stream' ? goJsonText(p.output.text) : p.output.text;
    const outcome = {
      name: hypothesis.name,
      exitCode: verdict.exitCode,
      signal: p.signal,
      timedOut: p.timedOut,
      durationMs: p.durationMs,
      passed: counts.passed,
      failed: counts.failed,
      skipped: counts.skipped,
      parsed: counts.parsed,
      buildFailed: counts.buildFailed,
      cases: counts.tests,
      ...(counts.failing === undefined ? {} : { failing: counts.failing }),
      tests: reference === undefined ? null : compareTests(reference, evidence, { testEdits }),
      changedLines: hypothesis.changedLines,
      outputTail: shownTail,
      error: problemOf(execution),
      readAs,
      canaries,
      ...(tampered === null ? {} : { tampered }),
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
    // A forgery stays named as one, whatever else a review found.
    .ranked.map((o) => ({
      ...o,
      disqualified:
        o.tampered === undefined ? (request.demote?.get(o.name) ?? o.disqualified) : o.disqualified,
    }))
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
