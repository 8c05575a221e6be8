import { defineConfig } from 'vitest/config';
import { filesChangingProcessState } from './server/test-support/process-state.mjs';
import { preparePythonForTests } from './server/test-support/python-for-tests.mjs';

preparePythonForTests();

const integrationFiles = 'server/**/*.integration.test.ts';
// Integration files that mock a module or change the environment, the working directory or the
// umask: they keep one module graph per file (see process-state.mjs), in a tier of their own.
const integrationFilesApart = filesChangingProcessState('server', '.integration.test.ts');
const integration = {
  testTimeout: 180_000,
  hookTimeout: 300_000,
  // Three files at a time on two cores: most of an integration file's time is spent waiting
  // (for a timeout to fire, a server to start, a child to be killed), so files overlap well;
  // each still builds real crates and runs real test runners, which is why it is three and not
  // more (four was barely faster, with every file twice as slow).
  maxWorkers: 3,
  // Both integration tiers in one group, after the unit tier's.
  sequence: { groupOrder: 1 },
};

// Three tiers told apart by file name: *.test.ts (unit, fakes only) and
// *.integration.test.ts (real git, real processes, real toolchains). e2e/ is Playwright's.
export default defineConfig({
  resolve: { alias: { '@': new URL('.', import.meta.url).pathname } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['server/**/*.test.ts', 'components/**/*.test.ts', 'bin/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', 'node_modules/**'],
          // Fakes only, no process state between files: one module graph per worker instead of
          // one per file. Importing it again for each of ~200 files was two thirds of the tier
          // (89 s isolated, 27 s not, on two cores; every test passes both ways).
          isolate: false,
          // Not 5 s: in CI this tier runs beside the static checks, the first integration files
          // and the tier again under Node 22, on two cores. Tests that write and walk real files
          // took over 5 s there (the inode cap's 5,000 files; an eval run's files), not hung.
          testTimeout: 20_000,
          // Its own group, run first: the tiers differ in how many files run at once.
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: [integrationFiles],
          exclude: [...integrationFilesApart, 'node_modules/**'],
          ...integration,
          // One module graph per worker, not one per file: the tier is CPU-bound on two cores,
          // and importing the server again for each of ~90 files was a good part of it.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration-apart',
          include: integrationFilesApart,
          ...integration,
        },
      },
    ],
  },
});
