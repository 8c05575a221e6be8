import { authenticate } from './auth';
import { restHandler, type TaskParams } from './handler';
import { jsonResponse } from './http';
import { readJsonBodyAs } from './json-body';
import { bodyLimits, parseTaskId, submitHypothesesBodySchema } from './schemas';

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
