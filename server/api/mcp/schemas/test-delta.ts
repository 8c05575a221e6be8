import { testDeltaViewSchema } from '../../../tasks/task-view-schema';
import { openSchema } from './open-schema';

/**
 * A run against its reference (the baseline, or the checkpoint it builds on), test by test: the
 * engine's TestDelta as the task view shows it, shown by `get_task` per hypothesis and by
 * `shadow_run` per run.
 */
export const testDeltaSchema = openSchema(testDeltaViewSchema);
