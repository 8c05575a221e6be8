import { readFileSync } from 'node:fs';
import path from 'node:path';

/** What the global setup hands the tests: the server it started, with nobody's account on it. */
export interface E2eState {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The server's SHADOWBOX_DATA_DIR (worktrees are under `<dataDir>/worktrees/<id>`). */
  readonly dataDir: string;
  /** The one-time set-up link the server printed at start (nobody had an account yet). */
  readonly setupLink: string;
}

/** What the `accounts` setup project made, once the first admin existed: tokens of people. */
export interface E2eAccounts {
  /** Scope `agent`, owned by the reviewer: creates tasks and submits hypotheses. */
  readonly agentToken: string;
  /** Scopes `agent,reviewer`, owned by the reviewer. */
  readonly reviewerToken: string;
  /** Scope `agent`, owned by the author. */
  readonly authorToken: string;
}

export const stateVariable = 'SHADOWBOX_E2E_STATE';

export function readState(): E2eState {
  const text = process.env[stateVariable];
  if (text === undefined || text === '') {
    throw new Error(
      `${stateVariable} is not set: run the e2e tests with \`npx playwright test\`, whose global setup starts the server`,
    );
  }
  return JSON.parse(text) as E2eState;
}

/** Where the `accounts` setup project leaves what it made (inside the run's data directory). */
export const accountsFile = (state: E2eState): string =>
  path.join(state.dataDir, 'e2e', 'accounts.json');

/** A signed-in browser state (the session cookie) of one person, saved by the setup project. */
export const storageStateFile = (state: E2eState, who: string): string =>
  path.join(state.dataDir, 'e2e', `${who}.storage-state.json`);

export function readAccounts(state: E2eState): E2eAccounts {
  try {
    return JSON.parse(readFileSync(accountsFile(state), 'utf8')) as E2eAccounts;
  } catch (error) {
    throw new Error(
      `no ${accountsFile(state)}: the \`accounts\` setup project makes it (playwright.config.ts runs it before the specs)`,
      { cause: error },
    );
  }
}
