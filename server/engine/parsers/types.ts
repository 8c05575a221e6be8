/** How one named test ended. */
export type TestStatus = 'passed' | 'failed' | 'skipped';

/** One test as the runner names it: `id` is stable across runs of the same tree (no timings). */
export interface TestCase {
  readonly id: string;
  readonly status: TestStatus;
  /**
   * A failed test's own output where the runner's report keeps it (jest's and vitest's JSON
   * `failureMessages`), bounded (test-output.ts); absent otherwise. The compare matrix shows it.
   */
  readonly output?: readonly string[];
}

/** What a parser makes of one run's output. `parsed: false` means the counts are meaningless zeros. */
export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
  parsed: boolean;
  /**
   * Each test the runner named, in the order it reported them; empty when it prints counts only.
   * When not empty, the counts are exactly the statuses' tallies.
   */
  tests: readonly TestCase[];
  /** The run stopped before its tests (a compile or build error): never "one failed test". */
  buildFailed: boolean;
  /**
   * Where `tests` is empty but the output named every failing test (`pytest -q`'s `FAILED`
   * lines): their ids, as many as `failed`. With the totals they let a verdict infer which
   * tests a change fixed (test-delta.ts); absent otherwise.
   */
  failing?: readonly string[];
}

export const runnerNames = [
  'cargo',
  'nextest',
  'go',
  'pytest',
  'unittest',
  'jest',
  'vitest',
  'mocha',
  'node',
  'bun',
  'tap',
  'xctest',
  'swift-testing',
  'ctest',
  'meson',
  'maven',
  'junit',
] as const;

export type RunnerName = (typeof runnerNames)[number];

export type Parser = (output: string) => TestCounts;

export function isRunnerName(value: string): value is RunnerName {
  return (runnerNames as readonly string[]).includes(value);
}

export function counts(
  passed: number,
  failed: number,
  skipped: number,
  tests: readonly TestCase[] = [],
): TestCounts {
  return { passed, failed, skipped, parsed: true, tests, buildFailed: false };
}

/** Counts from named tests: the tallies always agree with the list. */
export function fromTests(tests: readonly TestCase[]): TestCounts {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const t of tests) {
    if (t.status === 'passed') passed += 1;
    else if (t.status === 'failed') failed += 1;
    else skipped += 1;
  }
  return counts(passed, failed, skipped, tests);
}

export function unparsed(): TestCounts {
  return { passed: 0, failed: 0, skipped: 0, parsed: false, tests: [], buildFailed: false };
}

/** The output was read, and it says the code did not build: no test ran. */
export function buildFailure(): TestCounts {
  return { passed: 0, failed: 0, skipped: 0, parsed: true, tests: [], buildFailed: true };
}

/**
 * Sums results of several parts of one run (e.g. XCTest and swift-testing in one `swift test`).
 * The tests are listed only when every part lists all of its own, so the list stays complete.
 */
export function sum(...parts: readonly TestCounts[]): TestCounts {
  const found = parts.filter((part) => part.parsed);
  if (found.length === 0) return unparsed();
  const complete = found.every(
    (part) => part.tests.length === part.passed + part.failed + part.skipped,
  );
  return {
    passed: found.reduce((total, part) => total + part.passed, 0),
    failed: found.reduce((total, part) => total + part.failed, 0),
    skipped: found.reduce((total, part) => total + part.skipped, 0),
    parsed: true,
    tests: complete ? found.flatMap((part) => part.tests) : [],
    buildFailed: found.some((part) => part.buildFailed),
  };
}
