import { jsonResponse } from '../http/http-helpers';
import { readJsonBodyAs } from '../http/json-body';
import { acceptKnownFailuresBodySchema, bodyLimits, parseTaskId } from '../http/schemas';
import { authenticate } from './auth';
import { restHandler, type TaskParams } from './handler';

/**
 * `POST /api/v1/tasks/{id}/review-now` → the TaskView: a task waiting for hypotheses puts its
 * newest checkpoint up for review now, partial (no body). 409 INVALID_STATE when it is not
 * waiting, or its checkpoint is the baseline; 403 unless the owner, a reviewer or an admin.
 */
export const handleSendToReview = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  const task = await runtime.tasks.sendToReview(parseTaskId(params.id), actor);
  return jsonResponse(task);
});

/**
 * `POST /api/v1/tasks/{id}/known-failures` `{"ids":[…]}` → the TaskView: tests of the view's
 * `knownFailureOffer` become known failures. 400 names a test that is not on offer.
 */
export const handleAcceptKnownFailures = restHandler<TaskParams>(
  async (request, { runtime }, params) => {
    const actor = await authenticate(request, runtime);
    const id = parseTaskId(params.id);
    const body = await readJsonBodyAs(request, acceptKnownFailuresBodySchema, bodyLimits.small);
    const task = await runtime.tasks.acceptKnownFailures(id, body.ids, actor);
    return jsonResponse(task);
  },
);
