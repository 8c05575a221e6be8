import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApiToken } from '../../../auth/api-tokens';
import { createRuntime, type RuntimeOptions, type ServerRuntime } from '../../../runtime';
import type { Role, Scope } from '../../../tasks/task-api';
import { userIn } from '../../../test-support/actors';
import { createMcpHttpHandler } from '../http';
import { mcpServicesOf } from '../services';
import { serveFetchHandler, type ServedHandler } from './serve-fetch';

/** A real runtime on a temporary data directory, its MCP endpoint served over real HTTP. */
export interface RealMcpServer {
  readonly dataDir: string;
  readonly runtime: ServerRuntime;
  readonly served: ServedHandler;
  /**
   * A new bearer token with these scopes, of `user` (made, with `role`, if missing). By default a
   * reviewer's (rita) when the scopes include `reviewer`, else an author's (alice).
   */
  token(scopes: readonly Scope[], options?: { user?: string; role?: Role }): Promise<string>;
  /** The SDK's client, connected with `token` as the bearer. */
  connect(token: string): Promise<Client>;
  close(): Promise<void>;
}

export async function startRealMcpServer(options: RuntimeOptions = {}): Promise<RealMcpServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-mcp-'));
  const runtime = await createRuntime(
    {
      dataDir,
      host: '127.0.0.1',
      port: 0,
      database: { provider: 'sqlite', file: path.join(dataDir, 'db.sqlite') },
    },
    options,
  );
  const served = await serveFetchHandler(
    createMcpHttpHandler(() =>
      Promise.resolve({
        services: mcpServicesOf(runtime),
        authenticate: (authorization) => runtime.authenticate(authorization),
      }),
    ),
  );
  const clients: Client[] = [];
  return {
    dataDir,
    runtime,
    served,
    async token(scopes, options = {}) {
      const reviewer = scopes.includes('reviewer');
      const user = options.user ?? (reviewer ? 'rita' : 'alice');
      await userIn(runtime.db, user, options.role ?? (reviewer ? 'reviewer' : 'author'));
      return (await createApiToken(runtime.db, { user, scopes, name: 'mcp-test' })).token;
    },
    async connect(token) {
      const client = new Client({ name: 'shadowbox-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(served.url, {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await served.close();
      await runtime.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
