import { downloadResponse } from '../http/download';
import { jsonResponse } from '../http/http-helpers';
import { squashOf } from '../http/export-query';
import { parseTaskId } from '../http/schemas';
import { authenticate } from './auth';
import { restHandler, type TaskParams } from './handler';

/** `GET /api/v1/tasks/{id}/diff` → `{"diff","sha256","flags"}`. */
export const handleGetDiff = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  const { diff, sha256, flags } = await runtime.tasks.getDiff(parseTaskId(params.id), actor);
  return jsonResponse({ diff, sha256, flags });
});

/** `GET /api/v1/tasks/{id}/patch` → the stored patch bytes, their hash in `X-Content-SHA256`. */
export const handleGetPatch = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  return downloadResponse(await runtime.tasks.getPatch(parseTaskId(params.id), actor), 'patch');
});

/**
 * `GET /api/v1/tasks/{id}/series[?squash=1]` → the approved change as `git format-patch` mails,
 * one commit per checkpoint (or one in all); 409 STALE_DIFF when the approval is not on the
 * current diff.
 */
export const handleGetSeries = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  const squash = squashOf(request);
  const file = await runtime.tasks.exportApproved(
    parseTaskId(params.id),
    { kind: 'series', squash },
    actor,
  );
  return downloadResponse(file, 'series');
});

/** `GET /api/v1/tasks/{id}/bundle[?squash=1]` → a `git bundle` of branch `shadowbox/<id>`. */
export const handleGetBundle = restHandler<TaskParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  const squash = squashOf(request);
  const file = await runtime.tasks.exportApproved(
    parseTaskId(params.id),
    { kind: 'bundle', squash },
    actor,
  );
  return downloadResponse(file, 'bundle');
});
