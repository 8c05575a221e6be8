import { handleCreateBatch, handleListBatches, serveRoute } from '@/server/api/rest';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export function GET(request: Request): Promise<Response> {
  return serveRoute(request, getRuntime, handleListBatches);
}

export function POST(request: Request): Promise<Response> {
  return serveRoute(request, getRuntime, handleCreateBatch);
}
