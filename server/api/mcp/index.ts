/** The MCP server: tools over the task services and the shadow runner, on stdio and on HTTP. */
export { createMcpServer, type McpServerOptions } from './create-mcp-server';
export { createMcpHttpHandler, type McpHttpHandler, type McpHttpRuntime } from './http';
export { mcpServicesOf, type McpRuntimeParts } from './services';
export { serveMcpStdio, type McpStdioOptions } from './stdio';
export type { McpServices, McpShadows, McpTransportKind } from './tool-context';
export { mcpTools } from './tools';
