import { threadListViewSchema, threadViewSchema } from '../../../reviews';
import { openSchema } from './open-schema';

/** ThreadView (a review thread on lines of the diff, with its comments), with open objects. */
export const threadSchema = openSchema(threadViewSchema);

/** ThreadListView (the REST `GET /api/v1/tasks/{id}/threads` body), with open objects. */
export const threadListSchema = openSchema(threadListViewSchema);
