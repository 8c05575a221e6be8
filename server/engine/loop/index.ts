// The task loop: one step of a task at a time, against the ports the composition root binds.
// The lifecycle is pure and also reaches the browser, through `../lifecycle.ts`; the rest of this
// folder uses Node (git worktrees, processes) and is for the server only.
export {
  acceptsWork,
  activeStatuses,
  canApply,
  finalStatuses,
  initialTaskStatus,
  isIterationStatus,
  isTaskStatus,
  iterationStatuses,
  statusAfter,
  statusSetBy,
  taskStatuses,
  transitions,
  workStatuses,
  type IterationStatus,
  type TaskStatus,
  type Transition,
  type TransitionFrom,
} from './task-lifecycle';
export { initialTaskState, reduceTask, type TaskState } from './task-reducer';
export type {
  EgressRecord,
  RankedHypothesis,
  RunSummary,
  SetupRunResult,
  TaskEvent,
  TaskEventType,
} from './task-events';
export {
  createExternalFixer,
  createScriptedFixer,
  type CandidateHypothesis,
  type Fixer,
  type FixerDecision,
  type FixerSpend,
  type FixRequest,
  type RejectedHypothesis,
  type RepositoryView,
  type ReviewRequest,
  type ThreadReply,
} from './fixer';
export type { ReviewThreadBrief, ThreadComment } from './review-thread-brief';
export {
  gatesFinished,
  type GateResult,
  type IterationRecord,
  type LoopSource,
  type LoopTask,
  type LoopWorkspace,
  type PreparedWorkspace,
  type ReviewArtifact,
  type ReviewerPort,
  type SetupPlan,
  type SetupPort,
  type SetupRecord,
  type ShadowPort,
  type TaskChanges,
  type TaskLoopStore,
  type EnsuredWorkspace,
  type WorkspacePort,
  type WorkspaceRestore,
} from './loop-ports';
export { baselineProblem, failingIds, remainingFailures } from './run-evidence';
export { reviewMessage } from './review-message';
export {
  abandonTask,
  maxIterationsCeiling,
  stepTask,
  summarize,
  type LoopDeps,
  type StepOutcome,
} from './task-step';
export { createGitWorkspaces, gitSourceId, type GitWorkspacesOptions } from './git-workspaces';
