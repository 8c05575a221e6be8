import { handlePush, serveTaskRoute, type TaskRouteContext } from '@/server/api/rest';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export function POST(request: Request, context: TaskRouteContext): Promise<Response> {
  return serveTaskRoute(request, context, getRuntime, handlePush);
}
