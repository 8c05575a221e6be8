// Guesses the runner from its output for `--runner auto`. Each runner has a signature: its own
// summary line (or a pair of lines where one alone is too generic). The runner whose signature
// occurs LAST wins, because every runner prints its summary at the end and anything a test logs
// comes before it: a pytest run whose test prints `test result: ok. 9 passed; …` is still pytest.
// Ties on one line go to the earlier entry of the table (more specific first).
// Special cases: a document that starts as XML is a JUnit report whatever its captured output
// says; `swift test` prints an XCTest and then a swift-testing summary, which the xctest parser
// reads together; JUnit markup elsewhere only counts when nothing else matched. Node's dot
// reporter prints nothing but dots, too little to recognise: it is read when the runner is named.
import { cargoCouldNotCompilePattern, cargoResultPattern, libtestSuitePattern } from './cargo';
import { parseGoEvent } from './go-json';
import { goFailPattern, goNoTestFilesPattern, goOkPattern, goResultPattern } from './go-text';
import { jestSuitesPattern, jestTestsPattern } from './jest';
import { mavenSignaturePattern } from './maven';
import { mochaPassingPattern } from './mocha';
import { nextestSummaryPattern } from './nextest';
import { nodeSpecTestsPattern, nodeTapTestsPattern } from './node';
import { pytestSummaryPattern } from './pytest';
import { bunRanPattern } from './bun';
import { ctestNoTestsPattern, ctestSummaryPattern } from './ctest';
import { mesonNoTestsPattern, mesonOkPattern } from './meson';
import { swiftTestingRunPattern } from './swift-testing';
import { tapPlanPattern } from './tap';
import { unittestRanPattern } from './unittest';
import { vitestFilesPattern } from './vitest';
import { xctestExecutedPattern } from './xctest';
import type { RunnerName } from './types';
import { stripAnsi, toLines } from './text';

type Signature = (line: string, previous: string) => boolean;

const any =
  (...patterns: RegExp[]): Signature =>
  (line) =>
    patterns.some((pattern) => pattern.test(line));

const signatures: readonly (readonly [RunnerName, Signature])[] = [
  ['nextest', any(nextestSummaryPattern)],
  ['cargo', any(cargoResultPattern, libtestSuitePattern, cargoCouldNotCompilePattern)],
  [
    'go',
    (line) =>
      parseGoEvent(line) !== null ||
      any(goOkPattern, goFailPattern, goNoTestFilesPattern, goResultPattern)(line, ''),
  ],
  ['pytest', any(pytestSummaryPattern)],
  ['unittest', any(unittestRanPattern)],
  [
    'jest',
    (line, previous) =>
      (jestTestsPattern.test(line) && jestSuitesPattern.test(previous)) ||
      /^No tests found, exiting with code \d+$/.test(line),
  ],
  ['vitest', any(vitestFilesPattern, /^No test files found, exiting with code \d+$/)],
  ['mocha', any(mochaPassingPattern)],
  ['bun', any(bunRanPattern, /^No tests found!$/)],
  [
    'node',
    (line, previous) =>
      nodeSpecTestsPattern.test(line) ||
      (/^# suites \d+$/.test(line) && nodeTapTestsPattern.test(previous)),
  ],
  ['xctest', any(xctestExecutedPattern)],
  ['swift-testing', any(swiftTestingRunPattern)],
  ['ctest', any(ctestSummaryPattern, ctestNoTestsPattern)],
  ['maven', any(mavenSignaturePattern)],
  [
    'meson',
    (line, previous) =>
      (/^Expected Fail:\s+\d+\s*$/.test(line) && mesonOkPattern.test(previous)) ||
      mesonNoTestsPattern.test(line),
  ],
  ['tap', any(tapPlanPattern, /^TAP version \d+$/)],
];

const junitPattern = /<testsuites?[\s>/]/;

export function detectRunner(output: string): RunnerName | null {
  if (/^\s*(?:<\?xml[^>]*>\s*)?<testsuites?[\s>/]/.test(stripAnsi(output))) return 'junit';
  const lines = toLines(output);
  let winner: RunnerName | null = null;
  const seen = new Set<RunnerName>();
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const previous = lines[index - 1] ?? '';
    const match = signatures.find(([, signature]) => signature(line, previous));
    if (match === undefined) continue;
    winner = match[0];
    seen.add(winner);
  }
  if (winner === 'swift-testing' && seen.has('xctest')) return 'xctest';
  if (winner !== null) return winner;
  return lines.some((line) => junitPattern.test(line)) ? 'junit' : null;
}
