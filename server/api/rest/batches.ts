import {
  createBatchBodySchema,
  dropBatchMemberBodySchema,
  parseBatchId,
  pushBatchBodySchema,
  reviewBatchBodySchema,
} from '../../batches/batch-input';
import { downloadResponse } from '../http/download';
import { jsonResponse } from '../http/http-helpers';
import { readJsonBodyAs } from '../http/json-body';
import { bodyLimits } from '../http/schemas';
import { authenticate, requireReviewerScope } from './auth';
import { restHandler, type BatchParams } from './handler';

/**
 * `POST /api/v1/batches` `{"tasks":[id…]}` (2 to 8 approved tasks of one Git URL, in the order to
 * apply them) → `201` the BatchView, `Location` its URL. It is preflighted at once: `conflicts`
 * when a pair does not merge, otherwise tested in the background.
 */
export const handleCreateBatch = restHandler<undefined>(async (request, { runtime }) => {
  const actor = await authenticate(request, runtime);
  const body = await readJsonBodyAs(request, createBatchBodySchema, bodyLimits.small);
  const batch = await runtime.batches.createBatch(body, actor);
  return jsonResponse(batch, 201, { Location: `/api/v1/batches/${encodeURIComponent(batch.id)}` });
});

/** `GET /api/v1/batches` → `{"batches":[BatchView…]}`, newest first, those the caller sees. */
export const handleListBatches = restHandler<undefined>(async (request, { runtime }) => {
  const actor = await authenticate(request, runtime);
  return jsonResponse({ batches: await runtime.batches.listBatches(actor) });
});

/** `GET /api/v1/batches/{id}` → the BatchView. */
export const handleGetBatch = restHandler<BatchParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  return jsonResponse(await runtime.batches.getBatch(parseBatchId(params.id), actor));
});

/**
 * `POST /api/v1/batches/{id}/drop` `{"task"}` → the BatchView: the member is kept listed as
 * dropped, and the rest is preflighted and tested again.
 */
export const handleDropBatchMember = restHandler<BatchParams>(
  async (request, { runtime }, params) => {
    const actor = await authenticate(request, runtime);
    const id = parseBatchId(params.id);
    const { task } = await readJsonBodyAs(request, dropBatchMemberBodySchema, bodyLimits.small);
    return jsonResponse(await runtime.batches.dropMember(id, task, actor));
  },
);

/**
 * `GET /api/v1/batches/{id}/diff` → the combined diff (`git diff` of the base and the
 * combination) as a patch file, its SHA-256 in `X-Content-SHA256` (what a review binds to).
 */
export const handleGetBatchDiff = restHandler<BatchParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  return downloadResponse(await runtime.batches.batchDiff(parseBatchId(params.id), actor), 'patch');
});

/**
 * `POST /api/v1/batches/{id}/review` `{"verdict":"approve"|"reject","sha256"}` → the BatchView.
 * Reviewer tokens only (403, before the body is read); a hash that is not the combined diff's
 * is STALE_DIFF (409) from the service.
 */
export const handleReviewBatch = restHandler<BatchParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  requireReviewerScope(actor);
  const id = parseBatchId(params.id);
  const body = await readJsonBodyAs(request, reviewBatchBodySchema, bodyLimits.small);
  return jsonResponse(await runtime.batches.reviewBatch(id, body, actor));
});

/**
 * `POST /api/v1/batches/{id}/push` `{"remote","branch"?}` → `{"remote","branch","commit","by",
 * "at"}`: the approved combination, one commit per member, pushed to a branch (default
 * `shadowbox/batch-<id>`) of a configured remote; PUSH_REJECTED (409) with git's reason.
 */
export const handlePushBatch = restHandler<BatchParams>(async (request, { runtime }, params) => {
  const actor = await authenticate(request, runtime);
  const id = parseBatchId(params.id);
  const body = await readJsonBodyAs(request, pushBatchBodySchema, bodyLimits.small);
  return jsonResponse(await runtime.batches.pushBatch(id, body, actor));
});
