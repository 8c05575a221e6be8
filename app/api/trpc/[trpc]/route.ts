import { refuseForeignBrowserRequest } from '@/server/api/browser-origin';
import { handleTrpcRequest } from '@/server/api/trpc/handler';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

function handler(request: Request): Promise<Response> {
  // proxy.ts refuses a foreign Host or Origin first; checked again here in case it is bypassed.
  const refused = refuseForeignBrowserRequest(request);
  if (refused !== null) return Promise.resolve(refused);
  return handleTrpcRequest(request, getRuntime);
}

export { handler as GET, handler as POST };
