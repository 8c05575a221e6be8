import {
  defaultRunLimits,
  runLimitsAboveCeiling,
  runLimitsProblem,
  type RunLimits,
} from '../engine/sandbox';
import type { Actor } from '../auth/actor';
import { AppError } from '../errors/app-error';
import { maxIterationsCeiling } from '../engine/loop';
import { checkBuildCommand, checkCommand, checkSetupCommand, rebuildGap } from '../engine/policy';
import type { CreateTaskInput, PlanStepInput } from './task-api';
import { checkTaskPurpose, type TaskPurpose } from './task-title';

export const defaults = {
  maxIterations: 3,
  hypothesesPerIteration: 3,
  maxHypothesesPerIteration: 16,
  hypothesisWaitSecs: 1800,
  /** The default wall-clock budget (3600 s) ends a task first: a longer wait would never end. */
  maxHypothesisWaitSecs: 3600,
} as const;

/** A new task's settings once every check passed, with the defaults filled in. */
export interface CheckedTaskSettings {
  readonly maxIterations: number;
  readonly hypothesesPerIteration: number;
  readonly hypothesisWaitSecs: number;
  readonly purpose: TaskPurpose;
  readonly plan: readonly PlanStepInput[];
  readonly setupCommands: readonly (readonly string[])[] | undefined;
  readonly knownFailures: readonly string[];
  readonly fixer: 'external' | 'llm';
  readonly limits: Partial<RunLimits>;
  /** The eval run the task belongs to; null for an ordinary task. */
  readonly evalRunId: string | null;
}

/** The caps a task may ask: at most `ceiling`, or `hardMax` for an admin. */
export interface RunLimitCeilings {
  readonly ceiling: RunLimits;
  readonly hardMax: RunLimits;
}

/** Refuses a task the server would not run; nothing touches the disk or the database. */
export function checkCreateTaskInput(
  input: CreateTaskInput,
  server: {
    readonly llmAvailable?: boolean | undefined;
    /** Default: `defaultRunLimits` as both ceiling and hard maximum. */
    readonly runLimitCeilings?: RunLimitCeilings | undefined;
  },
  actor: Actor,
): CheckedTaskSettings {
  const maxIterations = checkRange(
    'maxIterations',
    input.maxIterations,
    maxIterationsCeiling,
    defaults.maxIterations,
  );
  const hypothesesPerIteration = checkRange(
    'hypothesesPerIteration',
    input.hypothesesPerIteration,
    defaults.maxHypothesesPerIteration,
    defaults.hypothesesPerIteration,
  );
  const hypothesisWaitSecs = checkRange(
    'hypothesisWaitSecs',
    input.hypothesisWaitSecs,
    defaults.maxHypothesisWaitSecs,
    defaults.hypothesisWaitSecs,
  );
  const purpose = checkTaskPurpose(input);
  const verdict = checkCommand(input.testCommand);
  if (!verdict.ok) throw new AppError('COMMAND_NOT_ALLOWED', verdict.message);
  const plan = checkPlan(input.plan ?? []);
  const setupCommands = checkSetupCommands(input.setupCommands);
  if (input.buildCommand !== undefined) {
    const build = checkBuildCommand(input.buildCommand);
    if (!build.ok) throw new AppError('COMMAND_NOT_ALLOWED', `build command: ${build.message}`);
  }
  // Setup that builds, tests that do not rebuild and no build step: stale binaries in every run.
  const gap = rebuildGap({ ...input, setupCommands });
  if (gap !== null) throw new AppError('INVALID_ARGUMENT', gap);
  const knownFailures = checkKnownFailures(input.knownFailures ?? []);
  const fixer = input.fixer ?? 'external';
  if (fixer === 'llm' && !server.llmAvailable) {
    throw new AppError(
      'INVALID_ARGUMENT',
      'this server has no LLM configured (set SHADOWBOX_LLM_BASE_URL and SHADOWBOX_LLM_MODEL)',
    );
  }
  if (
    input.maxTokens !== undefined &&
    !(Number.isInteger(input.maxTokens) && input.maxTokens > 0)
  ) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `maxTokens must be a positive whole number, got ${String(input.maxTokens)}`,
    );
  }
  const limits = input.limits ?? {};
  const limitsProblem = runLimitsProblem(limits);
  if (limitsProblem !== null) throw new AppError('INVALID_ARGUMENT', limitsProblem);
  const ceilings = server.runLimitCeilings ?? {
    ceiling: defaultRunLimits,
    hardMax: defaultRunLimits,
  };
  const aboveCeiling = runLimitsAboveCeiling(limits, { ...ceilings, admin: isAdmin(actor) });
  if (aboveCeiling !== null) throw new AppError('INVALID_ARGUMENT', aboveCeiling);
  const evalRunId = input.evalRunId ?? null;
  if (evalRunId !== null && !/^[A-Za-z0-9_-]{1,100}$/.test(evalRunId)) {
    throw new AppError('INVALID_ARGUMENT', 'evalRunId must be 1 to 100 letters, digits, - or _');
  }
  return {
    maxIterations,
    hypothesesPerIteration,
    hypothesisWaitSecs,
    purpose,
    plan,
    setupCommands,
    knownFailures,
    fixer,
    limits,
    evalRunId,
  };
}

/** An admin (signed in or by one of their tokens) or the server's own command line. */
function isAdmin(actor: Actor): boolean {
  return actor.kind === 'cli' || actor.person.role === 'admin';
}

export function checkRange(
  name: string,
  value: number | undefined,
  max: number,
  fallback: number,
): number {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `${name} must be a whole number from 1 to ${max}, got ${String(value)}`,
    );
  }
  return n;
}

const maxPlanSteps = 50;
const maxGatesPerStep = 10;

/** Every gate command passes the command policy, like the test command. */
export function checkPlan(plan: readonly PlanStepInput[]): readonly PlanStepInput[] {
  if (plan.length > maxPlanSteps) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `a plan may have at most ${maxPlanSteps} steps, got ${plan.length}`,
    );
  }
  plan.forEach((step, i) => {
    if (step.title.trim() === '' || step.title.length > 200) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `plan step ${i + 1} needs a title of 1 to 200 characters`,
      );
    }
    if (step.gates.length > maxGatesPerStep) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `plan step ${i + 1} has ${step.gates.length} gates; at most ${maxGatesPerStep}`,
      );
    }
    step.gates.forEach((argv, g) => {
      const verdict = checkCommand(argv);
      if (!verdict.ok) {
        throw new AppError(
          'COMMAND_NOT_ALLOWED',
          `plan step ${i + 1}, gate ${g + 1}: ${verdict.message}`,
        );
      }
    });
  });
  return plan;
}

const maxSetupCommands = 16;
const maxKnownFailures = 1000;

export function checkSetupCommands(
  commands: readonly (readonly string[])[] | undefined,
): readonly (readonly string[])[] | undefined {
  if (commands === undefined) return undefined;
  if (commands.length > maxSetupCommands) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `a task may have at most ${maxSetupCommands} setup commands, got ${commands.length}`,
    );
  }
  commands.forEach((argv, i) => {
    const verdict = checkSetupCommand(argv);
    if (!verdict.ok) {
      throw new AppError('COMMAND_NOT_ALLOWED', `setup command ${i + 1}: ${verdict.message}`);
    }
  });
  return commands;
}

export function checkKnownFailures(ids: readonly string[]): readonly string[] {
  if (ids.length > maxKnownFailures) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `knownFailures may list at most ${maxKnownFailures} tests, got ${ids.length}`,
    );
  }
  ids.forEach((id, i) => {
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    if (id.trim() === '' || id.length > 1000 || /[\u0000-\u001f]/.test(id)) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `knownFailures[${i}] must be a test id of 1 to 1000 printable characters`,
      );
    }
  });
  return ids;
}
