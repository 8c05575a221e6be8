import { jsonResponse } from '../http/http-helpers';
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
  const patch = await runtime.tasks.getPatch(parseTaskId(params.id), actor);
  return new Response(new Uint8Array(patch.bytes), {
    status: 200,
    headers: {
      'Content-Type': 'text/x-patch; charset=utf-8',
      'Content-Disposition': `attachment; filename="${safeFileName(patch.fileName)}"`,
      'Content-Length': String(patch.bytes.byteLength),
      'X-Content-SHA256': patch.sha256,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});

/** The service's names are already plain; this keeps a quote or a newline out of the header. */
function safeFileName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return safe === '' ? 'shadowbox.patch' : safe;
}
