import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { errorResponse } from '../http/errors';
import { bodyLimits } from '../http/schemas';
import type { Runtime } from '../../runtime';
import { createMcpServer } from './create-mcp-server';
import type { McpServices } from './tool-context';

/** What the HTTP transport needs from the process: the services and bearer-token auth. */
export interface McpHttpRuntime {
  readonly services: McpServices;
  readonly authenticate: Runtime['authenticate'];
}

export type McpHttpHandler = (request: Request) => Promise<Response>;

/**
 * The MCP Streamable HTTP endpoint (`/api/mcp`), stateless: every POST gets its own server and
 * transport, acting as the request's bearer token. There is no session, so there is no standalone
 * GET stream and nothing to DELETE: both are answered 405, as the protocol allows. Without a valid
 * token every method is answered 401 with the REST error body.
 */
export function createMcpHttpHandler(loadRuntime: () => Promise<McpHttpRuntime>): McpHttpHandler {
  return async (request) => {
    try {
      const runtime = await loadRuntime();
      const actor = await runtime.authenticate(request.headers.get('authorization'));
      if (request.method !== 'POST') return methodNotAllowed();
      const server = createMcpServer({ services: runtime.services, actor, transport: 'http' });
      // Closing the server aborts its running calls (their shadows are killed): once the answer
      // is out, or when the client goes away before that.
      let closed = false;
      const close = (): void => {
        if (closed) return;
        closed = true;
        server.close().catch((error: unknown) => {
          console.error('[mcp] closing a request server failed:', error);
        });
      };
      try {
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          // Hypotheses carry whole files, as on REST.
          maxRequestBodySize: bodyLimits.hypotheses,
        });
        await server.connect(transport);
        request.signal.addEventListener('abort', close, { once: true });
        return onBodyDone(await transport.handleRequest(request), close);
      } catch (error) {
        close();
        throw error;
      }
    } catch (error) {
      return errorResponse(error);
    }
  };
}

function methodNotAllowed(): Response {
  const body = {
    jsonrpc: '2.0',
    error: { code: -32000, message: 'Method not allowed: this endpoint is stateless, use POST' },
    id: null,
  };
  return Response.json(body, { status: 405, headers: { Allow: 'POST' } });
}

/** The same response, calling `done` once its body has been read to the end or cancelled. */
function onBodyDone(response: Response, done: () => void): Response {
  const source = response.body;
  if (source === null) {
    done();
    return response;
  }
  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          controller.close();
          done();
        } else {
          controller.enqueue(chunk.value);
        }
      } catch (error) {
        controller.error(error);
        done();
      }
    },
    async cancel(reason) {
      done();
      await reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
