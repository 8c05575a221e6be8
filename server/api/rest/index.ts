/** The REST transport (`/api/v1`) for agents and the CLI; the route files under app/api/v1 call these. */
export { handleCancelTask } from './cancel';
export { handleCreateTask } from './create-task';
export { handleGetDiff, handleGetPatch } from './diff';
export { handleTaskEvents } from './events';
export type { RestDeps, RestHandler, RestRuntime, TaskParams } from './handler';
export { handleSubmitHypotheses } from './hypotheses';
export { handleReopenTask } from './reopen';
export { handleReview } from './review';
export { serveRoute, serveTaskRoute, type TaskRouteContext } from './route';
export { handleGetTask, handleListTasks } from './tasks';
