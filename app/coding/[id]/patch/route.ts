import { handleDownloadPatch } from '@/server/api/trpc/browser-routes/download-patch';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export async function GET(
  request: Request,
  context: { params: Promise<{ id: string }> },
): Promise<Response> {
  const { id } = await context.params;
  return handleDownloadPatch(request, id, getRuntime);
}
