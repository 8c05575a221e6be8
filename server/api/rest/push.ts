import { pushBodySchema } from '../../tasks/push-input';
import { jsonResponse } from '../http/http-helpers';
import { readJsonBodyAs } from '../http/json-body';
import { bodyLimits, parseTaskId } from '../http/schemas';
import { authenticate } from './auth';
import { restHandler, type TaskParams } from './handler';

/**
 * `POST /api/v1/tasks/{id}/push` `{"remote","branch"?,"squash"?}` → `{"remote","branch","commit",
 * "sha256"}`: the approved change pushed to a branch (default `shadowbox/<id>`) of a configured
 * remote. 403 unless a reviewer; 409 STALE_DIFF when the approval is not on the current diff,
 * PUSH_REJECTED with git's reason (the branch moved, the credential was refused).
 */
export const handlePush = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  const id = parseTaskId(params.id);
  const body = await readJsonBodyAs(request, pushBodySchema, bodyLimits.small);
  return jsonResponse(await runtime.tasks.push(id, body, actor));
});
