import { handleUploadTask } from '@/server/api/trpc/browser-routes/upload-task';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export function POST(request: Request): Promise<Response> {
  return handleUploadTask(request, getRuntime);
}
