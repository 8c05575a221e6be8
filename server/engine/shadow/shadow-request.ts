import { stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../errors/app-error';
import type { RunnerName } from '../parsers';
import { runLimitsProblem, type RunLimits } from '../sandbox/run-limits';
import type { Hypothesis } from './hypothesis';
import { pathProblem } from './hypothesis-paths';
import type { TestEvidence } from './test-delta';

export interface ShadowRunRequest {
  /** Absolute path of the workspace; never written unless `apply` is set and there is a winner. */
  readonly workspace: string;
  /** argv, never a shell string. */
  readonly command: readonly string[];
  readonly hypotheses: readonly Hypothesis[];
  /** Workspace-relative directory to run in; default the workspace itself. */
  readonly cwd?: string;
  /** Default: the number of cores. In-place mode always runs one at a time. */
  readonly parallel?: number;
  /** Per hypothesis; default 10 minutes. */
  readonly timeoutMs?: number;
  readonly apply?: boolean;
  /** Default: chosen from the command, else detected from the output. */
  readonly runner?: RunnerName | 'auto';
  readonly env?: Readonly<Record<string, string>>;
  readonly tailBytes?: number;
  readonly signal?: AbortSignal;
  /**
   * Hypotheses that run and are reported but rank after all others and never win, by name, with
   * the reason shown (e.g. ones that edit tests when the task does not allow it).
   */
  readonly demote?: ReadonlyMap<string, string>;
  /** Caps per hypothesis run; each field defaults to `defaultRunLimits`. */
  readonly limits?: Partial<RunLimits>;
  /**
   * The run every hypothesis is judged against (the baseline, or the checkpoint it builds on):
   * a winner breaks none of its passing tests, loses none of its tests and fixes one of its
   * failures. Without it a winner must pass outright.
   */
  readonly reference?: TestEvidence;
  /** Whether a reference test may go missing (the task allows test edits). */
  readonly allowMissing?: boolean;
  /**
   * The hypotheses answer a reviewer's comments on the reference (see `JudgeOptions`): a winner
   * need not fix a failure or add a test.
   */
  readonly reviewRound?: boolean;
  /** argv run before the command in every shadow; its failure is a build failure. */
  readonly buildCommand?: readonly string[];
  /**
   * Run the hypotheses-free request in the workspace itself (no overlay), so what it builds
   * stays for later runs, as in a developer's own checkout. Only for requests whose single
   * hypothesis has no changes.
   */
  readonly inWorkspace?: boolean;
}

/** Refuses a request that cannot run, naming the option and the value, before anything runs. */
export async function validateRequest(request: ShadowRunRequest): Promise<void> {
  const { workspace, command, parallel, timeoutMs, cwd } = request;
  if (!path.isAbsolute(workspace)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `workspace must be an absolute path, got '${workspace}'`,
    );
  }
  const stats = await stat(workspace).catch(() => null);
  if (stats?.isDirectory() !== true) {
    throw new AppError('INVALID_ARGUMENT', `workspace '${workspace}' is not a directory`);
  }
  if (command.length === 0 || command[0] === '') {
    throw new AppError('INVALID_ARGUMENT', 'the command is empty: give the test command after --');
  }
  if (request.buildCommand !== undefined && (request.buildCommand[0] ?? '') === '') {
    throw new AppError('INVALID_ARGUMENT', 'the build command is empty');
  }
  if (
    request.inWorkspace === true &&
    request.hypotheses.some((h) => h.edits.length > 0 || h.delete.length > 0)
  ) {
    throw new AppError('INVALID_ARGUMENT', 'only a run without changes can run in the workspace');
  }
  if (parallel !== undefined && !(Number.isInteger(parallel) && parallel >= 1 && parallel <= 64)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `parallel must be an integer from 1 to 64, got ${String(parallel)}`,
    );
  }
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `the timeout must be positive, got ${String(timeoutMs)} ms`,
    );
  }
  const limitsProblem = request.limits === undefined ? null : runLimitsProblem(request.limits);
  if (limitsProblem !== null) throw new AppError('INVALID_ARGUMENT', limitsProblem);
  const cwdProblem = cwd === undefined || cwd === '.' ? null : pathProblem(cwd);
  if (cwdProblem !== null)
    throw new AppError('INVALID_ARGUMENT', `cwd '${String(cwd)}' ${cwdProblem}`);
}
