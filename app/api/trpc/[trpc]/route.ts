import { handleTrpcRequest } from '@/server/api/trpc/handler';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

function handler(request: Request): Promise<Response> {
  return handleTrpcRequest(request, getRuntime);
}

export { handler as GET, handler as POST };
