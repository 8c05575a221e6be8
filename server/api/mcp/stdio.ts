import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { cliActor, type Actor } from '../../auth';
import { createMcpServer } from './create-mcp-server';
import type { McpServices } from './tool-context';

export interface McpStdioOptions {
  readonly services: McpServices;
  /** Who the session acts as: a token's person (SHADOWBOX_TOKEN), else the machine's admin. */
  readonly actor?: Actor;
  readonly stdin: Readable;
  /** Carries MCP messages only: everything else a process says goes to stderr. */
  readonly stdout: Writable;
  /** Ends the session early (SIGINT, SIGTERM). */
  readonly signal?: AbortSignal;
}

/**
 * Serves MCP on stdin/stdout as `actor` (default the machine's local user, `cliActor`), until stdin ends (the
 * client went away), the client closes the connection or `signal` aborts; then closes the server,
 * which aborts the calls still running.
 */
export async function serveMcpStdio(options: McpStdioOptions): Promise<void> {
  const { stdin, signal } = options;
  const server = createMcpServer({
    services: options.services,
    actor: options.actor ?? cliActor,
    transport: 'stdio',
  });
  const transport = new StdioServerTransport(stdin, options.stdout);
  const ended = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
    server.server.onclose = resolve;
    if (signal?.aborted === true) resolve();
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  await ended;
  await server.close();
}
