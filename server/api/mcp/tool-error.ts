import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { httpStatusOf, isAppError } from '../../errors/app-error';

/**
 * A refusal or fault as a tool result (`isError: true`), not a protocol error, so the agent reads
 * the reason: the AppError's `{code, message, details?}` as JSON text. Anything else is a bug or a
 * fault: logged (to stderr) and answered as INTERNAL without its message, as REST does.
 *
 * There is no `structuredContent`: the client checks it against the tool's output schema even on
 * an error result.
 */
export function toolError(error: unknown, tool: string): CallToolResult {
  let body: Record<string, unknown>;
  if (isAppError(error)) {
    if (httpStatusOf(error.code) >= 500) console.error(`[mcp] ${tool} failed:`, error);
    body = error.toJSON();
  } else {
    console.error(`[mcp] ${tool} failed unexpectedly:`, error);
    body = { code: 'INTERNAL', message: 'internal error' };
  }
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}
