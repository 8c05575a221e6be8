import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './e2e/support/chromium';
import { preparePythonForTests } from './server/test-support/python-for-tests.mjs';

// The server under test and its sandboxes start python (and pytest) cheaply: see the module.
preparePythonForTests();

/**
 * The e2e tier (`e2e/*.spec.ts`): the built app under `next start` on a scratch data directory,
 * started once by the global setup with nobody's account on it, driven in Debian's Chromium (Playwright's own browser builds
 * cannot be downloaded here). One worker: the machine has two cores and every task runs real
 * pytest in real sandboxes.
 */
export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.ts',
  globalSetup: './e2e/support/global-setup.ts',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  forbidOnly: process.env.CI !== undefined,
  // The first run builds the app (several minutes) inside the global setup.
  globalTimeout: 60 * 60_000,
  timeout: 8 * 60_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    ...devices['Desktop Chrome'],
    viewport: { width: 1280, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    actionTimeout: 30_000,
    navigationTimeout: 60_000,
    // The hypothesis editor is filled by a real paste (Ctrl+V) from the clipboard.
    permissions: ['clipboard-read', 'clipboard-write'],
    launchOptions: chromiumLaunchOptions,
  },
  // Nobody has an account when the server starts: the first-admin spec runs first and creates
  // the admin through the one-time link; then the `accounts` setup makes the other people, their
  // tokens and sessions; then every other spec. (Each project waits for the one before it.)
  projects: [
    {
      name: 'first-admin',
      testMatch: /first-admin\.spec\.ts$/,
      use: { browserName: 'chromium' },
    },
    {
      name: 'accounts',
      testMatch: /accounts\.setup\.ts$/,
      dependencies: ['first-admin'],
      use: { browserName: 'chromium' },
    },
    {
      name: 'chromium',
      testIgnore: /first-admin\.spec\.ts$/,
      dependencies: ['accounts'],
      use: { browserName: 'chromium' },
    },
  ],
});
