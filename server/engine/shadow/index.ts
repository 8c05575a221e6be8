export {
  createShadowRunner,
  type ShadowRunner,
  type ShadowRunnerOptions,
} from './create-shadow-runner';
export type { ShadowMode, HypothesisExecutor, ExecutionRequest, Execution } from './executor';
export {
  hypothesisSchema,
  shadowSpecSchema,
  type Hypothesis,
  type HypothesisEdit,
  type ShadowSpec,
} from './hypothesis';
export { formatReport } from './format-report';
export type { ShadowEvent } from './shadow-events';
export type { HypothesisOutcome, HypothesisResult, ShadowRunReport } from './shadow-report';
export { shadowRun, type ShadowRunRequest, type ShadowRunDeps } from './shadow-run';
export { failureCause, type FailureCause, type SetupFacts } from './failure-cause';
export { rank, isPass, compareRankables, type Rankable } from './rank';
export {
  checkHypothesisAgainst,
  checkHypothesisPaths,
  pathProblem,
  workspaceEntries,
  type EntryLookup,
} from './hypothesis-paths';
export { compareTests, type TestDelta, type TestEvidence } from './test-delta';
