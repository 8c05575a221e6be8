import { handleDropBatchMember, serveBatchRoute, type BatchRouteContext } from '@/server/api/rest';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export function POST(request: Request, context: BatchRouteContext): Promise<Response> {
  return serveBatchRoute(request, context, getRuntime, handleDropBatchMember);
}
