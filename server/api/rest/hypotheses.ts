import { jsonResponse } from '../http/http-helpers';
import { readJsonBodyAs } from '../http/json-body';
import { bodyLimits, parseTaskId, submitHypothesesBodySchema } from '../http/schemas';
import { authenticate } from './auth';
import { restHandler, type TaskParams } from './handler';

/** `POST /api/v1/tasks/{id}/hypotheses` → `202 {"accepted":[names]}`. */
export const handleSubmitHypotheses = restHandler<TaskParams>(
  async (request, { runtime }, params) => {
    const actor = await authenticate(request, runtime);
    const id = parseTaskId(params.id);
    const body = await readJsonBodyAs(request, submitHypothesesBodySchema, bodyLimits.hypotheses);
    const { accepted } = await runtime.tasks.submitHypotheses(id, body.hypotheses, actor);
    return jsonResponse({ accepted }, 202);
  },
);
