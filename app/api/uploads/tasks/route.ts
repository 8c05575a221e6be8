import { refuseForeignBrowserRequest } from '@/server/api/browser-origin';
import { handleUploadTask } from '@/server/api/trpc/browser-routes/upload-task';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export function POST(request: Request): Promise<Response> {
  // The one browser endpoint proxy.ts leaves out (it would buffer the archive): the Host and
  // Origin check runs here, before a byte of the body is read.
  const refused = refuseForeignBrowserRequest(request);
  if (refused !== null) return Promise.resolve(refused);
  return handleUploadTask(request, getRuntime);
}
