import type { LoopSource, LoopTask } from '../../engine/loop';

/**
 * The engine's workspace and setup ports take a task; a mining run is one, with no owner (so no
 * setup cache is shared with anybody's tasks) and nothing but its source, commit and command.
 */
export function miningTask(fields: {
  readonly id: string;
  readonly source: LoopSource;
  readonly sourceId: string | null;
  readonly commit: string | null;
  readonly testCommand: readonly string[];
}): LoopTask {
  return {
    id: fields.id,
    status: 'preparing',
    source: fields.source,
    title: 'eval build',
    problem: '',
    issueUrl: null,
    testCommand: fields.testCommand,
    maxIterations: 1,
    hypothesesPerIteration: 2,
    hypothesisWaitMs: 0,
    maxWallClockMs: 24 * 60 * 60 * 1000,
    startedAt: null,
    sourceId: fields.sourceId,
    ownerId: null,
    teamId: null,
    baselineCommit: fields.commit,
    checkpointSha: fields.commit,
    iterationCount: 0,
    cancelRequestedBy: null,
    reviewNowRequestedBy: null,
    fixer: 'external',
    allowTestEdits: true,
    maxTokens: null,
    tokensUsed: 0,
    limits: {},
    setupCommands: null,
    buildCommand: null,
    knownFailures: [],
    setup: null,
    openSteps: [],
    diffSha256: null,
    currentIteration: null,
    baselineRun: null,
    lastRun: null,
    referenceRun: null,
    recentlyBroken: [],
    review: null,
  };
}
