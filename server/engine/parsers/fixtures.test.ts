// Every fixture in ./fixtures is real output of the named tool, captured on this machine from
// tiny projects with passing, failing, skipped and broken tests (and tests that print other
// runners' summary lines on purpose), except the `*.handwritten.txt` files, written from the
// runner's documented format because the tool (or that version of it) cannot run here (XCTest,
// swift-testing, nextest, go ≥ 1.24's build events, surefire 2.x). `maven-surefire-junit.xml` is
// surefire's report of the `maven-mixed` run with its system <properties> left out. Each
// expectation cites what the tool itself reported. `named` fixtures name every test; the exact
// lists are asserted runner by runner in test-ids.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  detectRunner,
  parseJUnitXml,
  parseTestOutput,
  type RunnerName,
  type TestCounts,
} from './index';

type Expected = readonly [passed: number, failed: number, skipped: number] | 'unparsed';

interface Case {
  readonly file: string;
  readonly runner: RunnerName;
  readonly expected: Expected;
  /** The output says the code did not build (the counts are what ran elsewhere, if anything). */
  readonly buildFailed?: true;
  /** The output names every test, so `tests` lists them all. */
  readonly named?: true;
  /** What `--runner auto` detects, when it is not `runner`. */
  readonly detected?: RunnerName | null;
  readonly why: string;
}

const cases: readonly Case[] = [
  {
    file: 'cargo-pass.txt',
    runner: 'cargo',
    expected: [6, 0, 1],
    named: true,
    why: '3 test result lines: 2/0/1, 2/0/0, 2/0/0',
  },
  {
    file: 'cargo-fail.txt',
    runner: 'cargo',
    expected: [4, 1, 2],
    named: true,
    why: 'fail-fast: doc tests never ran; 2/0/1 + 2/1/1',
  },
  {
    file: 'cargo-fail-no-fail-fast.txt',
    runner: 'cargo',
    expected: [6, 1, 2],
    named: true,
    why: '2/0/1 + 2/1/1 + 2/0/0',
  },
  {
    file: 'cargo-fail-color.txt',
    runner: 'cargo',
    expected: [6, 1, 2],
    named: true,
    why: 'same run, --color always',
  },
  {
    file: 'cargo-nocapture.txt',
    runner: 'cargo',
    expected: [6, 1, 2],
    named: true,
    why: 'same run, --nocapture',
  },
  {
    file: 'cargo-foreign-summaries.txt',
    runner: 'cargo',
    expected: [1, 1, 0],
    named: true,
    why: 'test result: FAILED. 1 passed; 1 failed',
  },
  {
    file: 'cargo-foreign-summaries-nocapture.txt',
    runner: 'cargo',
    expected: [1, 1, 0],
    named: true,
    why: 'same, --nocapture',
  },
  {
    file: 'cargo-compile-error.txt',
    runner: 'cargo',
    expected: [0, 0, 0],
    buildFailed: true,
    why: 'error: could not compile, no test ran',
  },
  {
    file: 'cargo-compile-error-test.txt',
    runner: 'cargo',
    expected: [0, 0, 0],
    buildFailed: true,
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
    named: true,
    why: '3/10 run: 1 passed, 1 failed, 1 exec failed',
  },
  {
    file: 'go-mixed-json.txt',
    runner: 'go',
    expected: [3, 3, 2],
    buildFailed: true,
    named: true,
    why: 'TestTable and its subtests all count: 3 pass, 3 fail, 2 skip; broken package did not build',
  },
  {
    file: 'go-mixed-v.txt',
    runner: 'go',
    expected: [3, 3, 2],
    buildFailed: true,
    named: true,
    why: 'same run, -v',
  },
  {
    file: 'go-mixed-plain.txt',
    runner: 'go',
    expected: [0, 0, 0],
    buildFailed: true,
    why: 'no -v names no passes; the broken package is a build failure',
  },
  {
    file: 'go-pass-json.txt',
    runner: 'go',
    expected: [6, 0, 2],
    named: true,
    why: 'TestTable passes with n=1, n=2; TestSkip and n=3 skip',
  },
  {
    file: 'go-pass-v.txt',
    runner: 'go',
    expected: [6, 0, 2],
    named: true,
    why: 'same run, -v',
  },
  {
    file: 'go-no-test-files.txt',
    runner: 'go',
    expected: [0, 0, 0],
    why: '? x [no test files]',
  },
  {
    file: 'go-build-fail-json-go124.handwritten.txt',
    runner: 'go',
    expected: [1, 0, 0],
    buildFailed: true,
    named: true,
    why: 'FailedBuild package + TestUp',
  },
  {
    file: 'pytest-mixed-q.txt',
    runner: 'pytest',
    expected: [6, 2, 2],
    why: '1 failed, 5 passed, 1 skipped, 1 xfailed, 1 xpassed, 1 error',
  },
  {
    file: 'pytest-mixed-v.txt',
    runner: 'pytest',
    expected: [6, 2, 2],
    named: true,
    why: 'same, -v',
  },
  {
    file: 'pytest-mixed-rA.txt',
    runner: 'pytest',
    expected: [6, 2, 2],
    why: 'same, -rA (replays captured fake summaries)',
  },
  {
    file: 'pytest-pass.txt',
    runner: 'pytest',
    expected: [2, 0, 0],
    why: '2 passed',
  },
  {
    file: 'pytest-pass-q.txt',
    runner: 'pytest',
    expected: [2, 0, 0],
    why: '2 passed',
  },
  {
    file: 'pytest-pass-color-rA.txt',
    runner: 'pytest',
    expected: [2, 0, 0],
    named: true,
    why: '2 passed, --color=yes',
  },
  {
    file: 'pytest-collect-error.txt',
    runner: 'pytest',
    expected: [0, 1, 0],
    named: true,
    why: '1 error (import error during collection)',
  },
  {
    file: 'pytest-collect-error-q.txt',
    runner: 'pytest',
    expected: [0, 1, 0],
    named: true,
    why: '1 error',
  },
  {
    file: 'pytest-no-tests.txt',
    runner: 'pytest',
    expected: [0, 0, 0],
    why: 'no tests ran',
  },
  {
    file: 'pytest-no-tests-q.txt',
    runner: 'pytest',
    expected: [0, 0, 0],
    why: 'no tests ran',
  },
  {
    file: 'pytest-foreign-summaries-rA.txt',
    runner: 'pytest',
    expected: [2, 1, 0],
    named: true,
    why: '1 failed, 2 passed',
  },
  {
    file: 'pytest-foreign-summaries-q-s.txt',
    runner: 'pytest',
    expected: [2, 1, 0],
    why: '1 failed, 2 passed, -s',
  },
  {
    file: 'unittest-mixed.txt',
    runner: 'unittest',
    expected: [1, 4, 2],
    why: 'Ran 7; failures=2, errors=1, skipped=1, expected failures=1, unexpected successes=1',
  },
  {
    file: 'unittest-mixed-v.txt',
    runner: 'unittest',
    expected: [1, 4, 2],
    named: true,
    why: 'same, -v',
  },
  {
    file: 'unittest-pass.txt',
    runner: 'unittest',
    expected: [2, 0, 1],
    why: 'Ran 3; OK (skipped=1)',
  },
  {
    file: 'unittest-pass-v.txt',
    runner: 'unittest',
    expected: [2, 0, 1],
    named: true,
    why: 'same, -v',
  },
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
  {
    file: 'jest-mixed.txt',
    runner: 'jest',
    expected: [3, 2, 2],
    why: 'Tests: 2 failed, 1 skipped, 1 todo, 3 passed, 7 total',
  },
  {
    file: 'jest-mixed-verbose.txt',
    runner: 'jest',
    expected: [3, 2, 2],
    named: true,
    why: 'same, --verbose',
  },
  {
    file: 'jest-mixed-color.txt',
    runner: 'jest',
    expected: [3, 2, 2],
    why: 'same, --colors',
  },
  {
    file: 'jest-pass.txt',
    runner: 'jest',
    expected: [2, 0, 0],
    named: true,
    why: 'Tests: 2 passed, 2 total',
  },
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
  {
    file: 'vitest-mixed-color.txt',
    runner: 'vitest',
    expected: [3, 2, 2],
    why: 'same, coloured',
  },
  {
    file: 'vitest-mixed-verbose.txt',
    runner: 'vitest',
    expected: [3, 2, 2],
    named: true,
    why: 'same, --reporter=verbose',
  },
  {
    file: 'vitest-pass.txt',
    runner: 'vitest',
    expected: [2, 0, 0],
    why: 'Tests 2 passed (2)',
  },
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
    named: true,
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
    named: true,
    why: '2 passing, 2 pending, 2 failing',
  },
  {
    file: 'mocha-mixed-color.txt',
    runner: 'mocha',
    expected: [2, 2, 2],
    named: true,
    why: 'same, --colors',
  },
  {
    file: 'mocha-mixed-tap.txt',
    runner: 'mocha',
    expected: [2, 2, 2],
    named: true,
    detected: 'tap',
    why: '--reporter tap: 2 ok, 2 not ok, 2 # SKIP',
  },
  {
    file: 'mocha-pass.txt',
    runner: 'mocha',
    expected: [2, 0, 0],
    named: true,
    why: '2 passing',
  },
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
    named: true,
    why: 'tests 6, pass 2, fail 2, skipped 1, todo 1',
  },
  {
    file: 'node-mixed-tap.txt',
    runner: 'node',
    expected: [2, 2, 2],
    named: true,
    why: 'same, TAP reporter',
  },
  {
    file: 'node-pass-spec.txt',
    runner: 'node',
    expected: [2, 0, 1],
    named: true,
    why: 'pass 2, skipped 1',
  },
  {
    file: 'node-pass-tap.txt',
    runner: 'node',
    expected: [2, 0, 1],
    named: true,
    why: 'same, TAP reporter',
  },
  {
    file: 'node-syntax-error-spec.txt',
    runner: 'node',
    expected: [0, 1, 0],
    named: true,
    why: 'the file that does not load is 1 failed test',
  },
  {
    file: 'node-syntax-error-tap.txt',
    runner: 'node',
    expected: [0, 1, 0],
    named: true,
    why: 'same, TAP reporter',
  },
  {
    file: 'bun-mixed.txt',
    runner: 'bun',
    expected: [3, 2, 2],
    named: true,
    why: '3 pass, 1 skip, 1 todo, 2 fail',
  },
  {
    file: 'bun-pass.txt',
    runner: 'bun',
    expected: [2, 0, 0],
    named: true,
    why: '2 pass, 0 fail',
  },
  {
    file: 'bun-load-error.txt',
    runner: 'bun',
    expected: [1, 1, 0],
    named: true,
    why: '1 pass, 1 fail, 1 error (the file that does not load)',
  },
  {
    file: 'bun-no-tests.txt',
    runner: 'bun',
    expected: [0, 0, 0],
    why: 'No tests found!',
  },
  {
    file: 'tap-perl-mixed.txt',
    runner: 'tap',
    expected: [3, 1, 3],
    named: true,
    why: 'Test::More: 1 failed of 7; 2 skip, 1 TODO',
  },
  {
    file: 'tap-perl-pass.txt',
    runner: 'tap',
    expected: [2, 0, 0],
    named: true,
    why: '1..2, both ok',
  },
  {
    file: 'tap-perl-bail.txt',
    runner: 'tap',
    expected: [1, 3, 0],
    why: '1..4, 1 ok, Bail out!',
  },
  {
    file: 'xctest-linux-mixed.handwritten.txt',
    runner: 'xctest',
    expected: [3, 2, 0],
    named: true,
    why: 'Executed 5 tests, with 3 failures (1 unexpected): 2 failing cases',
  },
  {
    file: 'xctest-macos-skipped.handwritten.txt',
    runner: 'xctest',
    expected: [1, 1, 1],
    named: true,
    why: 'Executed 3 tests, with 1 test skipped and 1 failure',
  },
  {
    file: 'swift-testing-mixed.handwritten.txt',
    runner: 'swift-testing',
    expected: [3, 2, 1],
    named: true,
    why: '6 tests; 2 failed, 1 skipped, 1 known issue',
  },
  {
    file: 'xctest-and-swift-testing.handwritten.txt',
    runner: 'xctest',
    expected: [3, 1, 1],
    named: true,
    why: 'XCTest 1/1 + swift-testing 3 tests, 1 skipped',
  },
  {
    file: 'ctest-mixed.txt',
    runner: 'ctest',
    expected: [2, 2, 2],
    named: true,
    why: '60% passed, 2 failed out of 5; did not run: Skipped, Disabled',
  },
  {
    file: 'ctest-mixed-output-on-failure.txt',
    runner: 'ctest',
    expected: [2, 2, 2],
    named: true,
    why: 'same, --output-on-failure',
  },
  {
    file: 'ctest-mixed-verbose.txt',
    runner: 'ctest',
    expected: [2, 2, 2],
    named: true,
    why: 'same, -V',
  },
  {
    file: 'ctest-mixed-j2.txt',
    runner: 'ctest',
    expected: [2, 2, 2],
    named: true,
    why: 'same, -j2',
  },
  {
    file: 'ctest-pass.txt',
    runner: 'ctest',
    expected: [2, 0, 0],
    named: true,
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
    named: true,
    why: 'Ok 2, Expected Fail 1, Fail 1, Unexpected Pass 1, Skipped 1',
  },
  {
    file: 'meson-mixed-verbose.txt',
    runner: 'meson',
    expected: [2, 2, 2],
    named: true,
    why: 'same, -v',
  },
  {
    file: 'meson-mixed-errorlogs.txt',
    runner: 'meson',
    expected: [2, 2, 2],
    named: true,
    why: 'same, --print-errorlogs',
  },
  {
    file: 'meson-pass.txt',
    runner: 'meson',
    expected: [2, 0, 0],
    named: true,
    why: 'Ok 2',
  },
  {
    file: 'meson-no-tests.txt',
    runner: 'meson',
    expected: [0, 0, 0],
    why: 'No tests defined.',
  },
  {
    file: 'meson-compile-error.txt',
    runner: 'meson',
    expected: 'unparsed',
    detected: null,
    why: 'Could not rebuild',
  },
  {
    file: 'pytest-junit.xml',
    runner: 'junit',
    expected: [6, 2, 2],
    named: true,
    why: 'same counts as the terminal summary',
  },
  {
    file: 'vitest-junit.xml',
    runner: 'junit',
    expected: [3, 2, 2],
    named: true,
    why: 'same counts as the terminal summary',
  },
  {
    file: 'mocha-xunit.xml',
    runner: 'junit',
    expected: [2, 2, 2],
    named: true,
    why: 'same counts as the terminal summary',
  },
  {
    file: 'ctest-junit.xml',
    runner: 'junit',
    expected: [2, 1, 3],
    named: true,
    why: 'ctest writes the missing executable as <skipped> status="notrun"',
  },
  {
    file: 'meson-junit.xml',
    runner: 'junit',
    expected: [4, 1, 1],
    named: true,
    why: 'meson writes should_fail outcomes as plain passes',
  },
  {
    file: 'cargo-workspace.txt',
    runner: 'cargo',
    expected: [7, 1, 2],
    named: true,
    why: 'workspace: ledger 3/0/1 + flows 1/1/1 + report 1/0/0 + 2 doc tests + 0',
  },
  {
    file: 'cargo-workspace-json.txt',
    runner: 'cargo',
    expected: [7, 1, 2],
    named: true,
    why: 'same run, libtest --format json',
  },
  {
    file: 'cargo-compile-error-e0425.txt',
    runner: 'cargo',
    expected: [0, 0, 0],
    buildFailed: true,
    why: 'error[E0425] in an integration test: could not compile',
  },
  {
    file: 'go-ids-v.txt',
    runner: 'go',
    expected: [6, 3, 2],
    buildFailed: true,
    named: true,
    why: 'geom: 5 pass (2 parents), 3 fail (1 parent), 2 skip; text: 1 pass; broken does not build',
  },
  {
    file: 'go-ids-v-cover.txt',
    runner: 'go',
    expected: [6, 3, 2],
    named: true,
    why: 'geom and text only, -v -cover: `coverage:` comes between PASS and ok',
  },
  {
    file: 'go-ids-json.txt',
    runner: 'go',
    expected: [6, 3, 2],
    buildFailed: true,
    named: true,
    why: 'same tree, -json',
  },
  {
    file: 'go-ids-plain.txt',
    runner: 'go',
    expected: [0, 0, 0],
    buildFailed: true,
    why: 'same tree, no -v: the build failure is all it says completely',
  },
  {
    file: 'go-build-fail-v.txt',
    runner: 'go',
    expected: [0, 0, 0],
    buildFailed: true,
    why: 'FAIL pkg [build failed] only',
  },
  {
    file: 'go-build-fail-json.txt',
    runner: 'go',
    expected: [0, 0, 0],
    buildFailed: true,
    why: 'same, -json (go 1.19 prints it as text)',
  },
  {
    file: 'go-setup-fail-v.txt',
    runner: 'go',
    expected: [0, 0, 0],
    buildFailed: true,
    why: 'FAIL pkg [setup failed]: a missing import',
  },
  {
    file: 'go-setup-fail-json.txt',
    runner: 'go',
    expected: [0, 0, 0],
    buildFailed: true,
    why: 'same, -json',
  },
  {
    file: 'go-timeout-v.txt',
    runner: 'go',
    expected: [1, 1, 0],
    named: true,
    why: '-timeout 1s: TestQuick passed, TestHangs never reported',
  },
  {
    file: 'go-timeout-json.txt',
    runner: 'go',
    expected: [1, 1, 0],
    named: true,
    why: 'same, -json',
  },
  {
    file: 'pytest-ids-v.txt',
    runner: 'pytest',
    expected: [6, 3, 2],
    named: true,
    why: '2 failed, 6 passed, 1 skipped, 1 xfailed, 1 error',
  },
  {
    file: 'pytest-ids-q-rA.txt',
    runner: 'pytest',
    expected: [6, 3, 2],
    why: 'same, -q -rA: the skipped test has no node id',
  },
  {
    file: 'pytest-ids-q.txt',
    runner: 'pytest',
    expected: [6, 3, 2],
    why: 'same, -q: only failures are named',
  },
  {
    file: 'unittest-ids-v.txt',
    runner: 'unittest',
    expected: [3, 3, 2],
    named: true,
    why: 'Ran 8; failures=2 (one a subtest), errors=1, skipped=1, expected failures=1',
  },
  {
    file: 'unittest-ids-v-py310.txt',
    runner: 'unittest',
    expected: [3, 3, 2],
    named: true,
    why: 'same tests, Python 3.10 -v',
  },
  {
    file: 'unittest-no-tests-v-py313.txt',
    runner: 'unittest',
    expected: [0, 0, 0],
    why: 'Ran 0 tests; NO TESTS RAN',
  },
  {
    file: 'jest-ids-verbose.txt',
    runner: 'jest',
    expected: [6, 2, 2],
    named: true,
    why: 'Tests: 2 failed, 1 skipped, 1 todo, 6 passed, 10 total',
  },
  {
    file: 'jest-ids-default.txt',
    runner: 'jest',
    expected: [6, 2, 2],
    why: 'same, two files without --verbose: only failures named',
  },
  {
    file: 'jest-ids-single.txt',
    runner: 'jest',
    expected: [2, 1, 2],
    named: true,
    why: 'one file: jest prints the tree by default',
  },
  {
    file: 'vitest-ids-verbose.txt',
    runner: 'vitest',
    expected: [6, 2, 2],
    named: true,
    why: 'Tests 2 failed | 6 passed | 1 skipped | 1 todo (10)',
  },
  {
    file: 'vitest-ids-default.txt',
    runner: 'vitest',
    expected: [6, 2, 2],
    why: 'same, default reporter: describe blocks are not named',
  },
  {
    file: 'vitest-ids-default-flat.txt',
    runner: 'vitest',
    expected: [4, 1, 0],
    named: true,
    why: 'one failing file without describe blocks',
  },
  {
    file: 'mocha-ids-spec.txt',
    runner: 'mocha',
    expected: [4, 2, 2],
    named: true,
    why: '4 passing, 2 pending, 2 failing',
  },
  {
    file: 'mocha-dot.txt',
    runner: 'mocha',
    expected: [4, 2, 2],
    why: 'same, --reporter dot',
  },
  {
    file: 'node-ids-spec.txt',
    runner: 'node',
    expected: [4, 1, 2],
    named: true,
    why: 'tests 7, suites 3, pass 4, fail 1, skipped 1, todo 1',
  },
  {
    file: 'node-ids-spec-subtests.txt',
    runner: 'node',
    expected: [4, 3, 2],
    why: 'tests 9, suites 2: a test with subtests looks like a suite',
  },
  {
    file: 'node-ids-tap.txt',
    runner: 'node',
    expected: [4, 3, 2],
    named: true,
    why: 'same run, TAP: suites are marked',
  },
  {
    file: 'node-dot.txt',
    runner: 'node',
    expected: [7, 4, 0],
    detected: null,
    why: 'dot reporter: 7 dots, 4 X (suites included)',
  },
  {
    file: 'ctest-ids.txt',
    runner: 'ctest',
    expected: [2, 1, 2],
    named: true,
    why: '75% passed, 1 failed out of 4; did not run: Skipped, Disabled',
  },
  {
    file: 'ctest-ids-j2.txt',
    runner: 'ctest',
    expected: [2, 1, 2],
    named: true,
    why: 'same, -j2 --output-on-failure',
  },
  {
    file: 'ctest-no-config.txt',
    runner: 'ctest',
    expected: [0, 0, 0],
    why: 'No test configuration file found!',
  },
  {
    file: 'maven-mixed.txt',
    runner: 'maven',
    expected: [3, 2, 1],
    why: 'Tests run: 6, Failures: 1, Errors: 1, Skipped: 1',
  },
  {
    file: 'maven-mixed-plain.txt',
    runner: 'maven',
    expected: [3, 2, 1],
    named: true,
    why: 'same, -Dsurefire.reportFormat=plain names every test',
  },
  {
    file: 'maven-pass.txt',
    runner: 'maven',
    expected: [5, 0, 1],
    why: 'Tests run: 6, Failures: 0, Errors: 0, Skipped: 1',
  },
  {
    file: 'maven-compile-error.txt',
    runner: 'maven',
    expected: [0, 0, 0],
    buildFailed: true,
    why: 'COMPILATION ERROR before the tests',
  },
  {
    file: 'maven-multi-plain.txt',
    runner: 'maven',
    expected: [2, 1, 0],
    named: true,
    why: 'two modules: 2 run (1 failure) + 1 run',
  },
  {
    file: 'maven-multi-test-compile-error.txt',
    runner: 'maven',
    expected: [1, 1, 0],
    buildFailed: true,
    why: 'billing 2 run, 1 failure; catalog tests do not compile',
  },
  {
    file: 'maven-no-tests.txt',
    runner: 'maven',
    expected: [0, 0, 0],
    why: 'No tests to run.',
  },
  {
    file: 'maven-surefire2.handwritten.txt',
    runner: 'maven',
    expected: [3, 2, 1],
    why: 'surefire 2.x; a test prints a fake total',
  },
  {
    file: 'maven-surefire-junit.xml',
    runner: 'junit',
    expected: [1, 2, 1],
    named: true,
    why: 'surefire report of maven-mixed: failure, error, skipped, pass',
  },
];

const fixture = (file: string): string =>
  readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8');

const summaryOf = ({ passed, failed, skipped, parsed, buildFailed }: TestCounts) => ({
  passed,
  failed,
  skipped,
  parsed,
  buildFailed,
});

const toSummary = ({ expected, buildFailed: broken }: Case) => {
  const buildFailed = broken === true;
  return expected === 'unparsed'
    ? { passed: 0, failed: 0, skipped: 0, parsed: false, buildFailed }
    : { passed: expected[0], failed: expected[1], skipped: expected[2], parsed: true, buildFailed };
};

describe('captured runner output', () => {
  it.each(cases)('$file with --runner $runner: $why', (c) => {
    const result = parseTestOutput(c.runner, fixture(c.file));
    expect(summaryOf(result)).toEqual(toSummary(c));
    expect(result.tests.length > 0).toBe(c.named === true);
  });

  it.each(cases)('$file is detected by --runner auto', (c) => {
    const output = fixture(c.file);
    const want = c.detected === undefined ? c.runner : c.detected;
    expect(detectRunner(output)).toBe(want);
    if (want === c.runner) {
      expect(parseTestOutput('auto', output)).toEqual(parseTestOutput(c.runner, output));
    }
  });

  it.each(cases)('$file: the list is complete, unique and tallies with the counts', (c) => {
    const { passed, failed, skipped, tests } = parseTestOutput(c.runner, fixture(c.file));
    if (tests.length === 0) return;
    expect(tests).toHaveLength(passed + failed + skipped);
    expect(new Set(tests.map((test) => test.id)).size).toBe(tests.length);
    const tally = (status: string) => tests.filter((test) => test.status === status).length;
    expect([tally('passed'), tally('failed'), tally('skipped')]).toEqual([passed, failed, skipped]);
  });

  it('covers every fixture file', () => {
    const files = readdirSync(new URL('./fixtures/', import.meta.url)).sort();
    expect(files).toEqual(cases.map((c) => c.file).sort());
  });

  it('reads the JUnit fixtures the same through parseJUnitXml', () => {
    expect(parseJUnitXml(fixture('pytest-junit.xml'))).toEqual(
      parseTestOutput('junit', fixture('pytest-junit.xml')),
    );
    expect(summaryOf(parseJUnitXml(fixture('pytest-junit.xml')))).toEqual(
      toSummary({ file: '', runner: 'junit', expected: [6, 2, 2], why: '' }),
    );
  });
});
