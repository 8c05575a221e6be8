/** The REST transport (`/api/v1`) for agents and the CLI; the route files under app/api/v1 call these. */
export {
  handleCreateBatch,
  handleDropBatchMember,
  handleGetBatch,
  handleGetBatchDiff,
  handleListBatches,
  handlePushBatch,
  handleReviewBatch,
} from './batches';
export { handleCancelTask } from './cancel';
export { handleCompare, handleCompareCell } from './compare';
export { handleCreateTask } from './create-task';
export { handleGetBundle, handleGetDiff, handleGetPatch, handleGetSeries } from './diff';
export { handleTaskEvents } from './events';
export type {
  BatchParams,
  RestDeps,
  RestHandler,
  RestRuntime,
  ReviewParams,
  TaskParams,
  ThreadParams,
} from './handler';
export { handleSubmitHypotheses } from './hypotheses';
export { handleInterdiff } from './interdiff';
export { handlePromote } from './promote';
export { handlePush } from './push';
export { handleReopenTask } from './reopen';
export { handleAcceptKnownFailures, handleSendToReview } from './steer';
export { handleReview } from './review';
export { handleDismissReview, handleSubmitReview } from './reviews';
export {
  serveBatchRoute,
  serveRoute,
  serveTaskRoute,
  type BatchRouteContext,
  type ReviewRouteContext,
  type TaskRouteContext,
  type ThreadRouteContext,
} from './route';
export { handleGetTask, handleListTasks } from './tasks';
export {
  handleListThreads,
  handleReopenThread,
  handleReplyToThread,
  handleResolveThread,
} from './threads';
