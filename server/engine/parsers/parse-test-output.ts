import { parseBun } from './bun';
import { parseCargo } from './cargo';
import { parseCtest } from './ctest';
import { detectRunner } from './detect';
import { parseGo } from './go';
import { parseJest } from './jest';
import { parseJUnitXml } from './junit-xml';
import { parseMaven } from './maven';
import { parseMeson } from './meson';
import { parseMocha } from './mocha';
import { parseNextest } from './nextest';
import { parseNode } from './node';
import { parsePytest } from './pytest';
import { parseSwiftTesting } from './swift-testing';
import { parseTap } from './tap';
import { parseUnittest } from './unittest';
import { parseVitest } from './vitest';
import { parseXctest } from './xctest';
import { unparsed, type Parser, type RunnerName, type TestCounts } from './types';

export const parsers: Readonly<Record<RunnerName, Parser>> = {
  cargo: parseCargo,
  nextest: parseNextest,
  go: parseGo,
  pytest: parsePytest,
  unittest: parseUnittest,
  jest: parseJest,
  vitest: parseVitest,
  mocha: parseMocha,
  node: parseNode,
  bun: parseBun,
  tap: parseTap,
  xctest: parseXctest,
  'swift-testing': parseSwiftTesting,
  ctest: parseCtest,
  meson: parseMeson,
  maven: parseMaven,
  junit: parseJUnitXml,
};

/** Counts passed/failed/skipped tests in a run's output; `auto` picks the runner from the text. */
export function parseTestOutput(runner: RunnerName | 'auto', output: string): TestCounts {
  const chosen = runner === 'auto' ? detectRunner(output) : runner;
  return chosen === null ? unparsed() : parsers[chosen](output);
}
