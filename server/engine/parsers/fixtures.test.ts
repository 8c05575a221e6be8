// Every fixture in ./fixtures is real output of the named tool, captured on this machine from
// tiny projects with passing, failing, skipped and broken tests (and tests that print other
// runners' summary lines on purpose), except the `*.handwritten.txt` files, written from the
// runner's documented format because the tool cannot run here (XCTest, swift-testing, nextest,
// go ≥ 1.24's build events). Each expectation cites what the tool itself reported.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectRunner, parseJUnitXml, parseTestOutput, type RunnerName } from './index';

type Expected = readonly [passed: number, failed: number, skipped: number] | 'unparsed';

interface Case {
  readonly file: string;
  readonly runner: RunnerName;
  readonly expected: Expected;
  /** What `--runner auto` detects, when it is not `runner`. */
  readonly detected?: RunnerName | null;
  readonly why: string;
}

const cases: readonly Case[] = [
  // cargo: unit (2 ok, 1 ignored) + integration (2 ok, then a failing test and an ignored one) + 2 doc tests.
  {
    file: 'cargo-pass.txt',
    runner: 'cargo',
    expected: [6, 0, 1],
    why: '3 test result lines: 2/0/1, 2/0/0, 2/0/0',
  },
  {
    file: 'cargo-fail.txt',
    runner: 'cargo',
    expected: [4, 1, 2],
    why: 'fail-fast: doc tests never ran; 2/0/1 + 2/1/1',
  },
  {
    file: 'cargo-fail-no-fail-fast.txt',
    runner: 'cargo',
    expected: [6, 1, 2],
    why: '2/0/1 + 2/1/1 + 2/0/0',
  },
  {
    file: 'cargo-fail-color.txt',
    runner: 'cargo',
    expected: [6, 1, 2],
    why: 'same run, --color always',
  },
  {
    file: 'cargo-nocapture.txt',
    runner: 'cargo',
    expected: [6, 1, 2],
    why: 'same run, --nocapture',
  },
  {
    file: 'cargo-foreign-summaries.txt',
    runner: 'cargo',
    expected: [1, 1, 0],
    why: 'test result: FAILED. 1 passed; 1 failed',
  },
  {
    file: 'cargo-foreign-summaries-nocapture.txt',
    runner: 'cargo',
    expected: [1, 1, 0],
    why: 'same, --nocapture',
  },
  {
    file: 'cargo-compile-error.txt',
    runner: 'cargo',
    expected: 'unparsed',
    detected: null,
    why: 'error: could not compile, no test ran',
  },
  {
    file: 'cargo-compile-error-test.txt',
    runner: 'cargo',
    expected: 'unparsed',
    detected: null,
    why: 'integration test does not compile',
  },
  {
    file: 'nextest-mixed.handwritten.txt',
    runner: 'nextest',
    expected: [4, 2, 2],
    why: '4 passed (1 slow), 1 failed, 1 timed out, 2 skipped',
  },
  {
    file: 'nextest-pass.handwritten.txt',
    runner: 'nextest',
    expected: [5, 0, 1],
    why: '5 passed (1 flaky), 1 skipped',
  },
  {
    file: 'nextest-cancelled.handwritten.txt',
    runner: 'nextest',
    expected: [1, 2, 0],
    why: '3/10 run: 1 passed, 1 failed, 1 exec failed',
  },
  // go: TestAdd, TestFails, TestSkip, TestTable/{n=1 pass, n=2 fail, n=3 skip}, strs.TestUp, a package that does not build.
  {
    file: 'go-mixed-json.txt',
    runner: 'go',
    expected: [3, 3, 2],
    why: 'leaves: 3 pass, 2 fail, 2 skip; + broken package',
  },
  { file: 'go-mixed-v.txt', runner: 'go', expected: [3, 3, 2], why: 'same run, -v' },
  {
    file: 'go-mixed-plain.txt',
    runner: 'go',
    expected: [1, 3, 0],
    why: 'no -v: ok strs; --- FAIL TestFails, TestTable/n=2; broken',
  },
  {
    file: 'go-pass-json.txt',
    runner: 'go',
    expected: [5, 0, 2],
    why: 'all leaves pass but TestSkip and n=3',
  },
  { file: 'go-pass-v.txt', runner: 'go', expected: [5, 0, 2], why: 'same run, -v' },
  { file: 'go-no-test-files.txt', runner: 'go', expected: [0, 0, 0], why: '? x [no test files]' },
  {
    file: 'go-build-fail-json-go124.handwritten.txt',
    runner: 'go',
    expected: [1, 1, 0],
    why: 'FailedBuild package + TestUp',
  },
  // pytest: 5 passed (incl. 3 params), 1 failed, 1 skipped, 1 xfailed, 1 xpassed, 1 setup error.
  {
    file: 'pytest-mixed-q.txt',
    runner: 'pytest',
    expected: [6, 2, 2],
    why: '1 failed, 5 passed, 1 skipped, 1 xfailed, 1 xpassed, 1 error',
  },
  { file: 'pytest-mixed-v.txt', runner: 'pytest', expected: [6, 2, 2], why: 'same, -v' },
  {
    file: 'pytest-mixed-rA.txt',
    runner: 'pytest',
    expected: [6, 2, 2],
    why: 'same, -rA (replays captured fake summaries)',
  },
  { file: 'pytest-pass.txt', runner: 'pytest', expected: [2, 0, 0], why: '2 passed' },
  { file: 'pytest-pass-q.txt', runner: 'pytest', expected: [2, 0, 0], why: '2 passed' },
  {
    file: 'pytest-pass-color-rA.txt',
    runner: 'pytest',
    expected: [2, 0, 0],
    why: '2 passed, --color=yes',
  },
  {
    file: 'pytest-collect-error.txt',
    runner: 'pytest',
    expected: [0, 1, 0],
    why: '1 error (import error during collection)',
  },
  { file: 'pytest-collect-error-q.txt', runner: 'pytest', expected: [0, 1, 0], why: '1 error' },
  { file: 'pytest-no-tests.txt', runner: 'pytest', expected: [0, 0, 0], why: 'no tests ran' },
  { file: 'pytest-no-tests-q.txt', runner: 'pytest', expected: [0, 0, 0], why: 'no tests ran' },
  {
    file: 'pytest-foreign-summaries-rA.txt',
    runner: 'pytest',
    expected: [2, 1, 0],
    why: '1 failed, 2 passed',
  },
  {
    file: 'pytest-foreign-summaries-q-s.txt',
    runner: 'pytest',
    expected: [2, 1, 0],
    why: '1 failed, 2 passed, -s',
  },
  // unittest: 7 tests: ok, fail, error, skip, expectedFailure, unexpected success, subTest failure.
  {
    file: 'unittest-mixed.txt',
    runner: 'unittest',
    expected: [1, 4, 2],
    why: 'Ran 7; failures=2, errors=1, skipped=1, expected failures=1, unexpected successes=1',
  },
  { file: 'unittest-mixed-v.txt', runner: 'unittest', expected: [1, 4, 2], why: 'same, -v' },
  {
    file: 'unittest-pass.txt',
    runner: 'unittest',
    expected: [2, 0, 1],
    why: 'Ran 3; OK (skipped=1)',
  },
  { file: 'unittest-pass-v.txt', runner: 'unittest', expected: [2, 0, 1], why: 'same, -v' },
  {
    file: 'unittest-no-tests.txt',
    runner: 'unittest',
    expected: [0, 0, 0],
    why: 'Ran 0 tests; OK',
  },
  {
    file: 'unittest-buffered-fail.txt',
    runner: 'unittest',
    expected: [1, 1, 0],
    why: 'Ran 2 tests; FAILED (failures=1), -b replays a fake Ran/OK',
  },
  {
    file: 'unittest-import-error.txt',
    runner: 'unittest',
    expected: [0, 1, 0],
    why: 'Ran 1 test; FAILED (errors=1)',
  },
  // jest: adds, fails, skipped, todo, suite › inner ok/inner fail, other ok.
  {
    file: 'jest-mixed.txt',
    runner: 'jest',
    expected: [3, 2, 2],
    why: 'Tests: 2 failed, 1 skipped, 1 todo, 3 passed, 7 total',
  },
  { file: 'jest-mixed-verbose.txt', runner: 'jest', expected: [3, 2, 2], why: 'same, --verbose' },
  { file: 'jest-mixed-color.txt', runner: 'jest', expected: [3, 2, 2], why: 'same, --colors' },
  { file: 'jest-pass.txt', runner: 'jest', expected: [2, 0, 0], why: 'Tests: 2 passed, 2 total' },
  {
    file: 'jest-suite-error.txt',
    runner: 'jest',
    expected: [1, 1, 0],
    why: 'Test Suites: 1 failed (failed to run); Tests: 1 passed',
  },
  {
    file: 'jest-no-tests.txt',
    runner: 'jest',
    expected: [0, 0, 0],
    why: 'No tests found, exiting with code 1',
  },
  {
    file: 'vitest-mixed.txt',
    runner: 'vitest',
    expected: [3, 2, 2],
    why: 'Tests 2 failed | 3 passed | 1 skipped | 1 todo (7)',
  },
  { file: 'vitest-mixed-color.txt', runner: 'vitest', expected: [3, 2, 2], why: 'same, coloured' },
  {
    file: 'vitest-mixed-verbose.txt',
    runner: 'vitest',
    expected: [3, 2, 2],
    why: 'same, --reporter=verbose',
  },
  { file: 'vitest-pass.txt', runner: 'vitest', expected: [2, 0, 0], why: 'Tests 2 passed (2)' },
  {
    file: 'vitest-suite-error.txt',
    runner: 'vitest',
    expected: [1, 1, 0],
    why: 'Failed Suites 1; Tests 1 passed (1)',
  },
  {
    file: 'vitest-suite-error-only.txt',
    runner: 'vitest',
    expected: [0, 1, 0],
    why: 'Failed Suites 1; Tests no tests',
  },
  {
    file: 'vitest-hooks.txt',
    runner: 'vitest',
    expected: [3, 2, 2],
    why: 'Failed Suites 1 (beforeAll); 3 passed | 2 skipped; Errors 1 error',
  },
  {
    file: 'vitest-no-tests.txt',
    runner: 'vitest',
    expected: [0, 0, 0],
    why: 'No test files found',
  },
  {
    file: 'mocha-mixed.txt',
    runner: 'mocha',
    expected: [2, 2, 2],
    why: '2 passing, 2 pending, 2 failing',
  },
  { file: 'mocha-mixed-color.txt', runner: 'mocha', expected: [2, 2, 2], why: 'same, --colors' },
  {
    file: 'mocha-mixed-tap.txt',
    runner: 'mocha',
    expected: [2, 2, 2],
    detected: 'tap',
    why: '--reporter tap: 2 ok, 2 not ok, 2 # SKIP',
  },
  { file: 'mocha-pass.txt', runner: 'mocha', expected: [2, 0, 0], why: '2 passing' },
  {
    file: 'mocha-load-error.txt',
    runner: 'mocha',
    expected: 'unparsed',
    detected: null,
    why: 'Exception during run: SyntaxError',
  },
  {
    file: 'node-mixed-spec.txt',
    runner: 'node',
    expected: [2, 2, 2],
    why: 'tests 6, pass 2, fail 2, skipped 1, todo 1',
  },
  { file: 'node-mixed-tap.txt', runner: 'node', expected: [2, 2, 2], why: 'same, TAP reporter' },
  { file: 'node-pass-spec.txt', runner: 'node', expected: [2, 0, 1], why: 'pass 2, skipped 1' },
  { file: 'node-pass-tap.txt', runner: 'node', expected: [2, 0, 1], why: 'same, TAP reporter' },
  {
    file: 'node-syntax-error-spec.txt',
    runner: 'node',
    expected: [0, 1, 0],
    why: 'the file that does not load is 1 failed test',
  },
  {
    file: 'node-syntax-error-tap.txt',
    runner: 'node',
    expected: [0, 1, 0],
    why: 'same, TAP reporter',
  },
  {
    file: 'bun-mixed.txt',
    runner: 'bun',
    expected: [3, 2, 2],
    why: '3 pass, 1 skip, 1 todo, 2 fail',
  },
  { file: 'bun-pass.txt', runner: 'bun', expected: [2, 0, 0], why: '2 pass, 0 fail' },
  {
    file: 'bun-load-error.txt',
    runner: 'bun',
    expected: [1, 1, 0],
    why: '1 pass, 1 fail, 1 error (the file that does not load)',
  },
  { file: 'bun-no-tests.txt', runner: 'bun', expected: [0, 0, 0], why: 'No tests found!' },
  {
    file: 'tap-perl-mixed.txt',
    runner: 'tap',
    expected: [3, 1, 3],
    why: 'Test::More: 1 failed of 7; 2 skip, 1 TODO',
  },
  { file: 'tap-perl-pass.txt', runner: 'tap', expected: [2, 0, 0], why: '1..2, both ok' },
  { file: 'tap-perl-bail.txt', runner: 'tap', expected: [1, 3, 0], why: '1..4, 1 ok, Bail out!' },
  {
    file: 'xctest-linux-mixed.handwritten.txt',
    runner: 'xctest',
    expected: [3, 2, 0],
    why: 'Executed 5 tests, with 3 failures (1 unexpected): 2 failing cases',
  },
  {
    file: 'xctest-macos-skipped.handwritten.txt',
    runner: 'xctest',
    expected: [1, 1, 1],
    why: 'Executed 3 tests, with 1 test skipped and 1 failure',
  },
  {
    file: 'swift-testing-mixed.handwritten.txt',
    runner: 'swift-testing',
    expected: [3, 2, 1],
    why: '6 tests; 2 failed, 1 skipped, 1 known issue',
  },
  {
    file: 'xctest-and-swift-testing.handwritten.txt',
    runner: 'xctest',
    expected: [3, 1, 1],
    why: 'XCTest 1/1 + swift-testing 3 tests, 1 skipped',
  },
  // ctest: passes, passes_too, fails, skipped (SKIP_RETURN_CODE), disabled, missing executable.
  {
    file: 'ctest-mixed.txt',
    runner: 'ctest',
    expected: [2, 2, 2],
    why: '60% passed, 2 failed out of 5; did not run: Skipped, Disabled',
  },
  {
    file: 'ctest-mixed-output-on-failure.txt',
    runner: 'ctest',
    expected: [2, 2, 2],
    why: 'same, --output-on-failure',
  },
  { file: 'ctest-mixed-verbose.txt', runner: 'ctest', expected: [2, 2, 2], why: 'same, -V' },
  { file: 'ctest-mixed-j2.txt', runner: 'ctest', expected: [2, 2, 2], why: 'same, -j2' },
  {
    file: 'ctest-pass.txt',
    runner: 'ctest',
    expected: [2, 0, 0],
    why: '100% tests passed, 0 tests failed out of 2',
  },
  {
    file: 'ctest-no-tests.txt',
    runner: 'ctest',
    expected: [0, 0, 0],
    why: 'No tests were found!!!',
  },
  {
    file: 'meson-mixed.txt',
    runner: 'meson',
    expected: [2, 2, 2],
    why: 'Ok 2, Expected Fail 1, Fail 1, Unexpected Pass 1, Skipped 1',
  },
  { file: 'meson-mixed-verbose.txt', runner: 'meson', expected: [2, 2, 2], why: 'same, -v' },
  {
    file: 'meson-mixed-errorlogs.txt',
    runner: 'meson',
    expected: [2, 2, 2],
    why: 'same, --print-errorlogs',
  },
  { file: 'meson-pass.txt', runner: 'meson', expected: [2, 0, 0], why: 'Ok 2' },
  { file: 'meson-no-tests.txt', runner: 'meson', expected: [0, 0, 0], why: 'No tests defined.' },
  {
    file: 'meson-compile-error.txt',
    runner: 'meson',
    expected: 'unparsed',
    detected: null,
    why: 'Could not rebuild',
  },
  // JUnit XML written by the tools for the mixed projects above.
  {
    file: 'pytest-junit.xml',
    runner: 'junit',
    expected: [6, 2, 2],
    why: 'same counts as the terminal summary',
  },
  {
    file: 'vitest-junit.xml',
    runner: 'junit',
    expected: [3, 2, 2],
    why: 'same counts as the terminal summary',
  },
  {
    file: 'mocha-xunit.xml',
    runner: 'junit',
    expected: [2, 2, 2],
    why: 'same counts as the terminal summary',
  },
  {
    file: 'ctest-junit.xml',
    runner: 'junit',
    expected: [2, 1, 3],
    why: 'ctest writes the missing executable as <skipped> status="notrun"',
  },
  {
    file: 'meson-junit.xml',
    runner: 'junit',
    expected: [4, 1, 1],
    why: 'meson writes should_fail outcomes as plain passes',
  },
];

const fixture = (file: string): string =>
  readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8');

const toCounts = (expected: Expected) =>
  expected === 'unparsed'
    ? { passed: 0, failed: 0, skipped: 0, parsed: false }
    : { passed: expected[0], failed: expected[1], skipped: expected[2], parsed: true };

describe('captured runner output', () => {
  it.each(cases)('$file with --runner $runner: $why', ({ file, runner, expected }) => {
    expect(parseTestOutput(runner, fixture(file))).toEqual(toCounts(expected));
  });

  it.each(cases)('$file is detected by --runner auto', ({ file, runner, expected, detected }) => {
    const output = fixture(file);
    const want = detected === undefined ? runner : detected;
    expect(detectRunner(output)).toBe(want);
    if (want === runner) expect(parseTestOutput('auto', output)).toEqual(toCounts(expected));
  });

  it('covers every fixture file', () => {
    const files = readdirSync(new URL('./fixtures/', import.meta.url)).sort();
    expect(files).toEqual(cases.map((c) => c.file).sort());
  });

  it('reads the JUnit fixtures the same through parseJUnitXml', () => {
    expect(parseJUnitXml(fixture('pytest-junit.xml'))).toEqual(toCounts([6, 2, 2]));
  });
});
