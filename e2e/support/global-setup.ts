import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureBuilt, startServer, type ServerHandle } from '../../server/test-support/app-server';
import { stateVariable, type E2eState } from './state';

/**
 * Builds the app once (only when a source changed since the last build) and starts one
 * `next start` on a fresh data directory for the whole run, with nobody's account on it: the
 * first-admin spec creates the first admin through the one-time link the server prints at start,
 * read here from its output. People and tokens come after that (e2e/accounts.setup.ts). The tests
 * find the server through an environment variable (workers inherit the runner's environment).
 * The returned function is the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  await ensureBuilt();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-e2e-'));
  let server: ServerHandle | undefined;
  try {
    // Two hypotheses sent together (editor + REST) must land in one iteration however slow the
    // machine: the iteration starts when both are in, not 3 s after the first.
    server = await startServer({ dataDir, env: { SHADOWBOX_HYPOTHESIS_GATHER_SECS: '60' } });
    const setupLink = await printedSetupLink(server);
    const state: E2eState = { url: server.url, dataDir, setupLink };
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

/** The `…/setup?token=…` link in what the server printed (it prints it as it starts). */
async function printedSetupLink(server: ServerHandle): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const link = /https?:\/\/\S+\/setup\?token=[\w-]+/.exec(server.output())?.[0];
    if (link !== undefined) return link;
    if (Date.now() > deadline) {
      throw new Error(
        `the server printed no set-up link within 30 s of answering; output:\n${server.output().slice(-4000)}`,
      );
    }
    await sleep(200);
  }
}
