import { promoteBodySchema } from '../../tasks/promote-input';
import { jsonResponse } from '../http/http-helpers';
import { readJsonBodyAs } from '../http/json-body';
import { bodyLimits, parseTaskId } from '../http/schemas';
import { authenticate } from './auth';
import { restHandler, type TaskParams } from './handler';

/**
 * `POST /api/v1/tasks/{id}/promote` `{"hypothesis","reason"}` → the TaskView: a passing runner-up
 * of the newest iteration is put up for review in the ranked winner's place, with a new diff and
 * SHA-256. 400 for a missing reason; 403 unless a reviewer (or their "reviewer" token); 404 for an
 * unknown hypothesis; 409 when the task is not awaiting review or the hypothesis may not be
 * promoted (disqualified, errored, already the winner).
 */
export const handlePromote = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  const id = parseTaskId(params.id);
  const body = await readJsonBodyAs(request, promoteBodySchema, bodyLimits.small);
  return jsonResponse(await runtime.tasks.promote(id, body, actor));
});
