import { handleGetBatchDiff, serveBatchRoute, type BatchRouteContext } from '@/server/api/rest';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export function GET(request: Request, context: BatchRouteContext): Promise<Response> {
  return serveBatchRoute(request, context, getRuntime, handleGetBatchDiff);
}
