import { createMcpHttpHandler, mcpServicesOf } from '@/server/api/mcp';
import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

// MCP over Streamable HTTP for remote agents (bearer tokens with the `agent` scope).
const handle = createMcpHttpHandler(async () => {
  const runtime = await getRuntime();
  return {
    services: mcpServicesOf(runtime),
    authenticate: (authorization) => runtime.authenticate(authorization),
  };
});

export function GET(request: Request): Promise<Response> {
  return handle(request);
}

export function POST(request: Request): Promise<Response> {
  return handle(request);
}

export function DELETE(request: Request): Promise<Response> {
  return handle(request);
}
