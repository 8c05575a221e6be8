import { handleCompare, serveTaskRoute, type TaskRouteContext } from '@/server/api/rest';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export function GET(request: Request, context: TaskRouteContext): Promise<Response> {
  return serveTaskRoute(request, context, getRuntime, handleCompare);
}
