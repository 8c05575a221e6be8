import { rm } from 'node:fs/promises';
import { test as base } from '@playwright/test';
import { api, createArchiveTask, type ApiClient } from '../../server/test-support/rest-client';
import {
  fixtureProject,
  packProject,
  type FixtureProject,
} from '../../server/test-support/projects';
import type { Who } from './people';
import {
  readAccounts,
  readState,
  storageStateFile,
  type E2eAccounts,
  type E2eState,
} from './state';

export { expect } from '@playwright/test';

interface TestOptions {
  /**
   * Who the page is signed in as (a session saved by the `accounts` setup project); null: nobody.
   * The reviewer by default: the tasks the `agent` token makes are theirs.
   */
  readonly signedInAs: Who | null;
}

interface TestFixtures {
  /** REST client with the reviewer's `agent` token: creates tasks, submits hypotheses, reads. */
  readonly agent: ApiClient;
  /** REST client with the reviewer's `agent,reviewer` token. */
  readonly reviewer: ApiClient;
  /** REST client with the author's `agent` token (tasks the reviewer cannot see). */
  readonly authorAgent: ApiClient;
  /** The pytest fixture project (one red test at baseline; right, wrong and broken fixes). */
  readonly pytestCalc: FixtureProject;
  /** Creates a task from an archive of pytest-calc through the REST API; returns its id. */
  readonly createPytestTask: (options?: {
    readonly maxIterations?: number;
    readonly hypothesesPerIteration?: number;
    /** Whose token creates it: the agent's (the reviewer's) by default. */
    readonly client?: ApiClient;
  }) => Promise<string>;
}

interface WorkerFixtures {
  /** The server the global setup started for this run. */
  readonly shadowbox: E2eState;
  /** The tokens the `accounts` setup project made. */
  readonly accounts: E2eAccounts;
}

export const test = base.extend<TestOptions & TestFixtures, WorkerFixtures>({
  signedInAs: ['reviewer', { option: true }],
  shadowbox: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
    async ({}, use) => {
      await use(readState());
    },
    { scope: 'worker' },
  ],
  accounts: [
    async ({ shadowbox }, use) => {
      await use(readAccounts(shadowbox));
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ shadowbox }, use) => {
    await use(shadowbox.url);
  },
  storageState: async ({ shadowbox, signedInAs }, use) => {
    await use(signedInAs === null ? undefined : storageStateFile(shadowbox, signedInAs));
  },
  agent: async ({ shadowbox, accounts }, use) => {
    await use(api(shadowbox.url, accounts.agentToken));
  },
  reviewer: async ({ shadowbox, accounts }, use) => {
    await use(api(shadowbox.url, accounts.reviewerToken));
  },
  authorAgent: async ({ shadowbox, accounts }, use) => {
    await use(api(shadowbox.url, accounts.authorToken));
  },
  // eslint-disable-next-line no-empty-pattern -- as above
  pytestCalc: async ({}, use) => {
    await use(fixtureProject('pytest-calc'));
  },
  createPytestTask: async ({ agent, pytestCalc }, use) => {
    const archives: string[] = [];
    await use(async (options = {}) => {
      const archive = await packProject(pytestCalc);
      archives.push(archive.dir);
      return createArchiveTask(options.client ?? agent, archive, {
        testCommand: pytestCalc.testCommand,
        maxIterations: options.maxIterations ?? 2,
        hypothesesPerIteration: options.hypothesesPerIteration ?? 1,
      });
    });
    for (const dir of archives) await rm(dir, { recursive: true, force: true });
  },
});
