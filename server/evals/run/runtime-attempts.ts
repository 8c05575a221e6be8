import { z } from 'zod';
import type { Db } from '../../db/client';
import type { GitUrlPolicy } from '../../engine';
import type { Actor, TaskServiceApi, TaskView } from '../../tasks/task-api';
import type { EvalInstance } from '../eval-instance';
import type { AttendTask } from './agent-process';
import { judgeAttempt, type IntegrityFlags, type VerdictCase } from './attempt-verdict';
import { packInstanceTree } from './instance-tree';
import type { AttemptOutcome, EvalAttemptPort } from './run-set';

// The run loop's port on a real runtime: each attempt is a task made from an upload of the
// instance's tree, run by the runtime's task runner, then judged on what the engine recorded.

/** What the attempts need of a runtime (a ServerRuntime has all of it). */
export interface EvalRuntime {
  readonly tasks: TaskServiceApi;
  readonly db: Db;
  readonly uploadDir: string;
}

export interface RuntimeAttemptOptions {
  readonly runtime: EvalRuntime;
  /** Who runs the eval: the tasks' owner. */
  readonly actor: Actor;
  /** The tasks' eval scope (Task.evalRunId). */
  readonly runId: string;
  readonly maxIterations: number;
  /** Overrides every instance's test_command; an instance without one needs it. */
  readonly testCommand?: readonly string[] | undefined;
  readonly gitPolicy: GitUrlPolicy;
  readonly cwd: string;
  /** An attempt still going after this long is cancelled (and not resolved). */
  readonly attemptTimeoutMs: number;
  readonly pollMs?: number;
  /**
   * Who fixes: the LLM fixer (default), or an external agent that attends each attempt while it
   * runs and submits its hypotheses through the MCP tools (`--agent mcp`).
   */
  readonly fixer?:
    { readonly kind: 'llm' } | { readonly kind: 'external'; readonly attend: AttendTask };
  /** Stops waiting for tasks (a server stopping): the wait throws, the tasks stay recorded. */
  readonly signal?: AbortSignal | undefined;
}

/** Where a task stops for good, or waits for a reviewer: the attempt is over. */
const over = new Set([
  'awaiting_review',
  'approved',
  'rejected',
  'failed',
  'cancelled',
  'interrupted',
]);

/** The upload's name, unique per instance and attempt: how a crashed run finds its task. */
const archiveName = (instance: EvalInstance, attempt: number): string =>
  `${instance.instance_id}.attempt-${attempt + 1}.tar.gz`;

/** A task's problem holds at most 64 KB; a longer statement is cut, and says so. */
const maxProblemBytes = 60_000;

export function runtimeAttempts(options: RuntimeAttemptOptions): EvalAttemptPort {
  const { runtime, actor } = options;
  const fixer: NonNullable<RuntimeAttemptOptions['fixer']> = options.fixer ?? { kind: 'llm' };
  return {
    async start(instance, attempt) {
      const name = archiveName(instance, attempt);
      const existing = await runtime.db.task.findFirst({
        where: { evalRunId: options.runId, archiveName: name },
        select: { id: true },
      });
      if (existing !== null) return existing.id;
      const testCommand = options.testCommand ?? instance.test_command;
      if (testCommand === undefined) {
        throw new Error(`${instance.instance_id} has no test_command; give --test-command`);
      }
      const file = await packInstanceTree({
        instance,
        uploadDir: runtime.uploadDir,
        gitPolicy: options.gitPolicy,
        cwd: options.cwd,
      });
      const { id } = await runtime.tasks.createTask(
        {
          source: { kind: 'archive', file, name },
          title: `eval ${instance.instance_id} #${attempt + 1}`.slice(0, 200),
          problem: problemOf(instance),
          testCommand,
          fixer: fixer.kind,
          // An agent sends its hypotheses one call at a time: each call starts an iteration.
          ...(fixer.kind === 'external' ? { hypothesesPerIteration: 1 } : {}),
          maxIterations: options.maxIterations,
          allowTestEdits: false,
          evalRunId: options.runId,
        },
        actor,
      );
      return id;
    },

    async finish(instance, taskId) {
      const { view, timedOut } =
        fixer.kind === 'external'
          ? await attendUnlessOver(options, fixer.attend, taskId, problemOf(instance))
          : await awaitEnd(options, taskId);
      const evidence = await readEvidence(runtime.db, taskId);
      const verdict = judgeAttempt({
        status: view.status,
        error: view.error,
        cases: evidence.cases,
        flags: evidence.flags,
        failToPass: instance.FAIL_TO_PASS,
        passToPass: instance.PASS_TO_PASS,
      });
      const outcome: AttemptOutcome = {
        resolved: verdict.resolved && !timedOut,
        tokens: view.spend.tokens,
        costUsd: view.spend.costMicroUsd / 1e6,
        durationMs: Math.max(0, Date.parse(view.updatedAt) - Date.parse(view.createdAt)),
        iterations: view.iterations.length,
        why: timedOut
          ? `timed out after ${Math.round(options.attemptTimeoutMs / 1000)} s; ${verdict.why}`
          : verdict.why,
      };
      return outcome;
    },
  };
}

function problemOf(instance: EvalInstance): string {
  const text = [instance.problem_statement, instance.hints_text]
    .filter((t) => t.trim() !== '')
    .join('\n\nHints:\n');
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxProblemBytes) return text;
  return `${bytes.subarray(0, maxProblemBytes).toString('utf8')}\n\n(the statement was cut at 60 KB)`;
}

/** A resumed attempt whose task already ended needs no agent. */
async function attendUnlessOver(
  options: RuntimeAttemptOptions,
  attend: AttendTask,
  taskId: string,
  problem: string,
): Promise<{ view: TaskView; timedOut: boolean }> {
  const view = await options.runtime.tasks.getTask(taskId, options.actor);
  if (over.has(view.status)) return { view, timedOut: false };
  return attend(taskId, problem, () => awaitEnd(options, taskId));
}

async function awaitEnd(
  options: RuntimeAttemptOptions,
  taskId: string,
): Promise<{ view: TaskView; timedOut: boolean }> {
  const { runtime, actor } = options;
  const pollMs = options.pollMs ?? 1000;
  let view = await runtime.tasks.getTask(taskId, actor);
  // Measured from the task's creation, so a resumed run does not give it a fresh allowance.
  const deadline = Date.parse(view.createdAt) + options.attemptTimeoutMs;
  let timedOut = false;
  while (!over.has(view.status)) {
    options.signal?.throwIfAborted();
    if (!timedOut && Date.now() > deadline) {
      timedOut = true;
      view = await runtime.tasks.cancel(taskId, actor);
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    view = await runtime.tasks.getTask(taskId, actor);
  }
  return { view, timedOut };
}

const caseSchema = z.object({
  id: z.string(),
  status: z.enum(['passed', 'failed', 'skipped']),
});
const flagsSchema = z.object({
  testFiles: z.array(z.string()).default([]),
  deletedTests: z.array(z.object({ path: z.string(), what: z.string() })).default([]),
  disabledTests: z.array(z.object({ path: z.string(), what: z.string() })).default([]),
  testEdits: z.array(z.object({ path: z.string(), what: z.string() })).default([]),
});

/**
 * The final checkpoint's tests (its winning run's, kept whole for winners) and the flags its
 * diff and run raised. No winner: no checkpoint beyond the baseline, no cases.
 */
async function readEvidence(
  db: Db,
  taskId: string,
): Promise<{ cases: VerdictCase[] | null; flags: IntegrityFlags }> {
  const [winner, task] = await Promise.all([
    db.run.findFirst({
      where: { taskId, kind: 'hypothesis', hypothesis: { verdict: 'winner' } },
      orderBy: { createdAt: 'desc' },
      select: { cases: true, disqualified: true },
    }),
    db.task.findUnique({ where: { id: taskId }, select: { diff: { select: { flags: true } } } }),
  ]);
  const cases = z.array(caseSchema).safeParse(winner?.cases ?? null);
  const parsed = flagsSchema.safeParse(task?.diff?.flags ?? {});
  // Flags that do not read are a flag: nobody can tell what the diff did to the tests.
  const flags = parsed.success
    ? parsed.data
    : {
        testFiles: ['(unreadable diff flags)'],
        deletedTests: [],
        disabledTests: [],
        testEdits: [],
      };
  const disqualified = winner?.disqualified ?? null;
  return {
    cases: cases.success ? cases.data : null,
    flags: {
      testFiles: flags.testFiles,
      deletedTests: flags.deletedTests.map((d) => `${d.path}: ${d.what}`),
      disabledTests: flags.disabledTests.map((d) => `${d.path}: ${d.what}`),
      testEdits: flags.testEdits.map((d) => d.what),
      tampered: disqualified?.startsWith('tampered') === true ? disqualified : null,
    },
  };
}
