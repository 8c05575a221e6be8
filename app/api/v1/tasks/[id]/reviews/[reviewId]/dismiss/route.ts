import { handleDismissReview, serveTaskRoute, type ReviewRouteContext } from '@/server/api/rest';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

export function POST(request: Request, context: ReviewRouteContext): Promise<Response> {
  return serveTaskRoute(request, context, getRuntime, handleDismissReview);
}
