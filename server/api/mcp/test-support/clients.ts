import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Actor } from '../../../tasks/task-api';
import { fakePerson } from '../../../test-support/actors';
import { createMcpServer } from '../create-mcp-server';
import type { McpServices, McpTransportKind } from '../tool-context';

export { cliActor } from '../../../auth/actor';
/** An author's agent token. */
export const agentActor: Actor = {
  kind: 'token',
  tokenId: 'tok-agent',
  scopes: ['agent'],
  person: fakePerson('alice'),
};
/** A reviewer's token with the reviewer scope only. */
export const reviewerOnlyActor: Actor = {
  kind: 'token',
  tokenId: 'tok-reviewer',
  scopes: ['reviewer'],
  person: fakePerson('rita', 'reviewer'),
};

/** The SDK's own client, connected in memory to a server for `actor` over `transport`. */
export async function connectInMemory(
  services: McpServices,
  actor: Actor,
  transport: McpTransportKind,
): Promise<Client> {
  const server = createMcpServer({ services, actor, transport });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'shadowbox-test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** `{code, message}` of an error result; fails the test when the result is not an error. */
export function errorOf(result: CallToolResult): { code: string; message: string } {
  if (result.isError !== true) {
    throw new Error(`expected an error result, got ${JSON.stringify(result).slice(0, 2000)}`);
  }
  return JSON.parse(textOf(result)) as { code: string; message: string };
}

/** The text of a result's first content block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== 'text') throw new Error(`no text content: ${JSON.stringify(result)}`);
  return first.text;
}

/** `client.callTool` typed as a plain tool result (no task results are used here). */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options?: Parameters<Client['callTool']>[2],
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, options)) as CallToolResult;
}
