import { AppError } from '../../../errors/app-error';
import type { Runtime } from '../../../runtime';
import { errorResponse } from '../../http/errors';
import { taskIdSchema } from '../input-schemas';
import { refuseCrossSite, requestOrigin } from '../request-guard';
import { requireSession } from './session';

/**
 * `GET /coding/{id}/patch[?sha256=…]`: the stored patch as a download, for the UI's link (the REST
 * download needs a token). With `sha256`, the patch must still be the one the page showed.
 */
export async function handleDownloadPatch(
  request: Request,
  taskId: string,
  loadRuntime: () => Promise<Pick<Runtime, 'tasks' | 'accounts'>>,
): Promise<Response> {
  try {
    refuseCrossSite(requestOrigin(request.headers));
    if (!taskIdSchema.safeParse(taskId).success) {
      throw new AppError('NOT_FOUND', `no task ${JSON.stringify(taskId.slice(0, 64))}`);
    }
    const runtime = await loadRuntime();
    const actor = await requireSession(runtime, request.headers);
    const patch = await runtime.tasks.getPatch(taskId, actor);
    const expected = new URL(request.url).searchParams.get('sha256');
    if (expected !== null && expected !== patch.sha256) {
      throw new AppError(
        'STALE_DIFF',
        `the diff changed since the page showed ${expected.slice(0, 12)}…; reload the page to review the current one`,
        { details: { current: patch.sha256 } },
      );
    }
    return new Response(new Uint8Array(patch.bytes), {
      status: 200,
      headers: {
        'Content-Type': 'text/x-patch; charset=utf-8',
        'Content-Disposition': `attachment; filename="${patch.fileName}"`,
        'Content-Length': String(patch.bytes.byteLength),
        'X-Content-SHA256': patch.sha256,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  } catch (error) {
    return errorResponse(error);
  }
}
