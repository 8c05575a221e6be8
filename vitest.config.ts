import { defineConfig } from 'vitest/config';
import { preparePythonForTests } from './server/test-support/python-for-tests.mjs';

preparePythonForTests();

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
          // Its own group, run first: the tiers differ in how many files run at once.
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['server/**/*.integration.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          // Three files at a time on two cores: most of an integration file's time is spent
          // waiting (for a timeout to fire, a server to start, a child to be killed), so files
          // overlap well; each still builds real crates and runs real test runners, which is why
          // it is three and not more (four was barely faster, with every file twice as slow).
          // Still one module graph per file: with one per worker (isolate: false) a file's
          // process-wide caches (pip's index, read once) leaked into the next file.
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
