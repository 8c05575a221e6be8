import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Actor } from '../../tasks/task-api';
import type { McpTool, ToolCallExtra } from './define-tool';
import type { McpServices, McpTransportKind, ToolContext } from './tool-context';
import { mcpTools } from './tools';

export interface McpServerOptions {
  readonly services: McpServices;
  /** Who every call of this server acts as: the local user (stdio) or the bearer token (HTTP). */
  readonly actor: Actor;
  readonly transport: McpTransportKind;
  /** Default: every tool. */
  readonly tools?: readonly McpTool[];
}

const serverInfo = { name: 'shadowbox', version: '0.1.0' };

const instructions =
  'Shadowbox runs candidate fixes (hypotheses: whole new file contents) in copy-on-write shadows ' +
  'of a workspace and ranks them by their test results; the workspace is never written. ' +
  'shadow_run answers "which of these passes" in one call. A task (create_task) is the longer ' +
  'loop: submit_hypotheses, follow get_task, read get_diff; a person reviews the diff. Their ' +
  'review threads (list_threads) are answered with new hypotheses and reply_to_thread; only a ' +
  'reviewer resolves a thread, requests changes or approves.';

/** An MCP server with the tools registered for one actor; connect it to one transport. */
export function createMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer(serverInfo, { capabilities: { tools: {} }, instructions });
  const contextOf = (extra: ToolCallExtra): ToolContext => ({
    services: options.services,
    actor: options.actor,
    transport: options.transport,
    signal: extra.signal,
    progress(done, total, message) {
      const progressToken = extra._meta?.progressToken;
      if (progressToken === undefined) return;
      extra
        .sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: done, total, message },
        })
        .catch(() => undefined); // the client went away: the call's signal says so
    },
  });
  for (const tool of options.tools ?? mcpTools) tool.register(server, contextOf);
  return server;
}
