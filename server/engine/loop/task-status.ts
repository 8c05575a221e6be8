/**
 * The task statuses, kept as a path for the modules that import them from here: the lifecycle
 * (statuses, sets and transitions) lives in `task-lifecycle.ts`.
 */
export {
  activeStatuses,
  finalStatuses,
  isTaskStatus,
  taskStatuses,
  type TaskStatus,
} from './task-lifecycle';
