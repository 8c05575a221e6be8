/** What the global setup hands the tests: the server it started and tokens for it. */
export interface E2eState {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The server's SHADOWBOX_DATA_DIR (worktrees are under `<dataDir>/worktrees/<id>`). */
  readonly dataDir: string;
  /** Scope `agent`: creates tasks and submits hypotheses. */
  readonly agentToken: string;
  /** Scopes `agent,reviewer`. */
  readonly reviewerToken: string;
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
