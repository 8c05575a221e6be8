import { rm } from 'node:fs/promises';
import { test as base } from '@playwright/test';
import { api, createArchiveTask, type ApiClient } from '../../server/test-support/rest-client';
import {
  fixtureProject,
  packProject,
  type FixtureProject,
} from '../../server/test-support/projects';
import { readState, type E2eState } from './state';

export { expect } from '@playwright/test';

interface TestFixtures {
  /** REST client with the `agent` token: creates tasks, submits hypotheses, reads tasks. */
  readonly agent: ApiClient;
  /** REST client with `agent,reviewer`. */
  readonly reviewer: ApiClient;
  /** The pytest fixture project (one red test at baseline; right, wrong and broken fixes). */
  readonly pytestCalc: FixtureProject;
  /** Creates a task from an archive of pytest-calc through the REST API; returns its id. */
  readonly createPytestTask: (options?: {
    readonly maxIterations?: number;
    readonly hypothesesPerIteration?: number;
  }) => Promise<string>;
}

interface WorkerFixtures {
  /** The server the global setup started for this run. */
  readonly shadowbox: E2eState;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  shadowbox: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
    async ({}, use) => {
      await use(readState());
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ shadowbox }, use) => {
    await use(shadowbox.url);
  },
  agent: async ({ shadowbox }, use) => {
    await use(api(shadowbox.url, shadowbox.agentToken));
  },
  reviewer: async ({ shadowbox }, use) => {
    await use(api(shadowbox.url, shadowbox.reviewerToken));
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
      return createArchiveTask(agent, archive, {
        testCommand: pytestCalc.testCommand,
        maxIterations: options.maxIterations ?? 2,
        hypothesesPerIteration: options.hypothesesPerIteration ?? 1,
      });
    });
    for (const dir of archives) await rm(dir, { recursive: true, force: true });
  },
});
