import { refuseForeignBrowserRequest } from '@/server/api/browser-origin';
import { handleDownload } from '@/server/api/trpc/browser-routes/download-patch';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export async function GET(
  request: Request,
  context: { params: Promise<{ id: string }> },
): Promise<Response> {
  // proxy.ts refuses a foreign Host first; checked again here in case it is bypassed.
  const refused = refuseForeignBrowserRequest(request);
  if (refused !== null) return refused;
  const { id } = await context.params;
  return handleDownload(request, id, 'bundle', getRuntime);
}
