import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  createToken,
  ensureBuilt,
  startServer,
  type ServerHandle,
} from '../../server/test-support/app-server';
import { stateVariable, type E2eState } from './state';

/**
 * Builds the app once (only when a source changed since the last build), makes tokens with the
 * real CLI, and starts one `next start` on a fresh data directory for the whole run. The tests
 * find it through an environment variable (workers inherit the runner's environment). The
 * returned function is the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  await ensureBuilt();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-e2e-'));
  let server: ServerHandle | undefined;
  try {
    // Tokens first: the CLI migrates the fresh database before the server opens it.
    const agentToken = await createToken(dataDir, ['agent'], { name: 'e2e-agent' });
    const reviewerToken = await createToken(dataDir, ['agent', 'reviewer'], {
      name: 'e2e-reviewer',
    });
    // Two hypotheses sent together (editor + REST) must land in one iteration however slow the
    // machine: the iteration starts when both are in, not 3 s after the first.
    server = await startServer({ dataDir, env: { SHADOWBOX_HYPOTHESIS_GATHER_SECS: '60' } });
    const state: E2eState = { url: server.url, dataDir, agentToken, reviewerToken };
    process.env[stateVariable] = JSON.stringify(state);
    process.stderr.write(`[e2e] server ${server.url}, data ${dataDir}\n`);
  } catch (error) {
    await server?.kill9().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const started = server;
  return async () => {
    await started.kill().catch(() => started.kill9());
    if (process.env.SHADOWBOX_E2E_KEEP_DATA === '1') {
      process.stderr.write(`[e2e] kept the data directory ${dataDir}\n`);
    } else {
      await rm(dataDir, { recursive: true, force: true });
    }
  };
}
