import { router } from '../../trpc';
import { cancelTask } from './cancel-task';
import { compare, compareCell } from './compare';
import { createTask } from './create-task';
import { getDiff } from './get-diff';
import { getTask } from './get-task';
import { interdiff } from './interdiff';
import { listFiles } from './list-files';
import { listTasks } from './list-tasks';
import { promote } from './promote';
import { push, remotes } from './push';
import { readFile } from './read-file';
import { reopenTask } from './reopen-task';
import { reviewTask } from './review-task';
import { rollbackTask } from './rollback-task';
import { acceptKnownFailures, sendToReview } from './steer-task';
import { submitHypothesis } from './submit-hypothesis';
import { taskChanges } from './task-changes';
import { taskEvents } from './task-events';

export const tasksRouter = router({
  list: listTasks,
  get: getTask,
  create: createTask,
  submitHypothesis,
  review: reviewTask,
  reopen: reopenTask,
  cancel: cancelTask,
  rollback: rollbackTask,
  sendToReview,
  acceptKnownFailures,
  promote,
  push,
  remotes,
  diff: getDiff,
  compare,
  compareCell,
  interdiff,
  listFiles,
  readFile,
  events: taskEvents,
  changes: taskChanges,
});
