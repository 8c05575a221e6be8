/** What a parser makes of one run's output. `parsed: false` means the counts are meaningless zeros. */
export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
  parsed: boolean;
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
  'junit',
] as const;

export type RunnerName = (typeof runnerNames)[number];

export type Parser = (output: string) => TestCounts;

export function isRunnerName(value: string): value is RunnerName {
  return (runnerNames as readonly string[]).includes(value);
}

export function counts(passed: number, failed: number, skipped: number): TestCounts {
  return { passed, failed, skipped, parsed: true };
}

export function unparsed(): TestCounts {
  return { passed: 0, failed: 0, skipped: 0, parsed: false };
}

/** Sums results of several parts of one run (e.g. XCTest and swift-testing in one `swift test`). */
export function sum(...parts: readonly TestCounts[]): TestCounts {
  const found = parts.filter((part) => part.parsed);
  if (found.length === 0) return unparsed();
  return counts(
    found.reduce((total, part) => total + part.passed, 0),
    found.reduce((total, part) => total + part.failed, 0),
    found.reduce((total, part) => total + part.skipped, 0),
  );
}
