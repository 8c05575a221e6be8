import { AppError } from '../../../errors/app-error';
import type { Runtime } from '../../../runtime';
import { downloadResponse, requireShownSha256, type DownloadKind } from '../../http/download';
import { errorResponse } from '../../http/errors';
import { squashOf } from '../../http/export-query';
import { taskIdSchema } from '../input-schemas';
import { refuseCrossSite, requestOrigin } from '../request-guard';
import { requireSession } from './session';

/**
 * `GET /coding/{id}/patch[?sha256=…]`, `/coding/{id}/series[?squash=1]`, `/coding/{id}/bundle`:
 * the stored patch, or the approved change as a series or a bundle, as a download, for the
 * page's links (the REST downloads need a token). With `sha256`, the diff must still be the one
 * the page showed.
 */
export async function handleDownload(
  request: Request,
  taskId: string,
  kind: DownloadKind,
  loadRuntime: () => Promise<Pick<Runtime, 'tasks' | 'accounts'>>,
): Promise<Response> {
  try {
    refuseCrossSite(requestOrigin(request.headers));
    if (!taskIdSchema.safeParse(taskId).success) {
      throw new AppError('NOT_FOUND', `no task ${JSON.stringify(taskId.slice(0, 64))}`);
    }
    const runtime = await loadRuntime();
    const actor = await requireSession(runtime, request.headers);
    const file =
      kind === 'patch'
        ? await runtime.tasks.getPatch(taskId, actor)
        : await runtime.tasks.exportApproved(taskId, { kind, squash: squashOf(request) }, actor);
    requireShownSha256(request, file.sha256);
    return downloadResponse(file, kind);
  } catch (error) {
    return errorResponse(error);
  }
}

/** `GET /coding/{id}/patch`. */
export const handleDownloadPatch = (
  request: Request,
  taskId: string,
  loadRuntime: () => Promise<Pick<Runtime, 'tasks' | 'accounts'>>,
): Promise<Response> => handleDownload(request, taskId, 'patch', loadRuntime);
