import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { requireTokenScope } from '../../auth';
import type { ToolContext } from './tool-context';
import { toolError } from './tool-error';

/**
 * What a tool's `run` may return for an output schema: its (input) type with read-only arrays and
 * without the loose objects' index signatures, so the services' readonly view interfaces fit it.
 */
export type OutputOf<T> = T extends readonly (infer E)[]
  ? readonly OutputOf<E>[]
  : T extends object
    ? { readonly [K in keyof T as string extends K ? never : K]: OutputOf<T[K]> }
    : T;

/**
 * One MCP tool: zod schemas for its input and its structured output, the one service call it makes,
 * and how its result reads as text (for clients that only show text).
 */
export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: I;
  readonly output: O;
  readonly annotations: ToolAnnotations;
  run(input: z.output<I>, context: ToolContext): Promise<OutputOf<z.input<O>>>;
  /** Default: the structured result as indented JSON. */
  render?(output: OutputOf<z.input<O>>, input: z.output<I>): string;
}

/** A tool with its types sealed in, so tools of different shapes fit in one list. */
export interface McpTool {
  readonly name: string;
  register(server: McpServer, contextOf: (extra: ToolCallExtra) => ToolContext): RegisteredTool;
}

/** The part of the SDK's request context a tool call uses. */
export interface ToolCallExtra {
  readonly signal: AbortSignal;
  readonly _meta?: { readonly progressToken?: string | number | undefined } | undefined;
  readonly sendNotification: (notification: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; total: number; message: string };
  }) => Promise<void>;
}

const asJson = (value: unknown): string => JSON.stringify(value, null, 2);

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  spec: ToolSpec<I, O>,
): McpTool {
  const call = async (input: z.output<I>, context: ToolContext): Promise<CallToolResult> => {
    try {
      // Tokens need the agent scope for every tool; the local user (stdio) needs none.
      requireTokenScope(context.actor, 'agent');
      const output = await spec.run(input, context);
      return {
        structuredContent: output,
        content: [{ type: 'text', text: spec.render?.(output, input) ?? asJson(output) }],
      };
    } catch (error) {
      return toolError(error, spec.name);
    }
  };
  return {
    name: spec.name,
    register(server, contextOf) {
      // Registered as a plain object schema: the SDK's callback type does not resolve for a generic
      // one. It has parsed the arguments with `spec.input` before it calls back.
      return server.registerTool<O, z.ZodObject>(
        spec.name,
        {
          title: spec.title,
          description: spec.description,
          inputSchema: spec.input,
          outputSchema: spec.output,
          annotations: spec.annotations,
        },
        (args, extra) => call(args as z.output<I>, contextOf(extra)),
      );
    },
  };
}
