import { taskViewSchema as serviceTaskView } from '../../../tasks/task-view-schema';
import { openSchema } from './open-schema';

/**
 * TaskView (the REST `GET /api/v1/tasks/{id}` body), as `get_task`'s structured result: the
 * services' schema with open objects (a field the view gains later must not fail a client's
 * validation against this declaration).
 */
export const taskViewSchema = openSchema(serviceTaskView).extend({
  // The one object MCP always declared closed; kept so that `tools/list` says what it said.
  limits: serviceTaskView.shape.limits,
});
