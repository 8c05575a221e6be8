// Shapes of output that the captured fixtures do not cover: other versions of a runner, options
// not used when capturing, and the decisions documented in each parser's header.
import { describe, expect, it } from 'vitest';
import { parseTestOutput, runnerNames, type RunnerName, type TestCounts } from './index';

// The counts only: which tests are named is asserted in test-ids.test.ts.
type Summary = Omit<TestCounts, 'tests'>;

const lines = (...text: string[]): string => text.join('\n');
const ok = (passed: number, failed: number, skipped: number): Summary => ({
  passed,
  failed,
  skipped,
  parsed: true,
  buildFailed: false,
});
const parse = (runner: RunnerName, ...text: string[]): Summary => {
  const { tests: _tests, ...summary } = parseTestOutput(runner, lines(...text));
  return summary;
};

describe('every runner', () => {
  it.each(runnerNames)('%s reports parsed: false for text without its summary', (runner) => {
    const text = 'Compiling…\nerror: something went wrong\n5 passed, 0 failed\nDone.';
    expect(parseTestOutput(runner, text)).toEqual({
      passed: 0,
      failed: 0,
      skipped: 0,
      parsed: false,
      tests: [],
      buildFailed: false,
    });
  });

  it('auto reports parsed: false when no runner is recognised', () => {
    expect(parseTestOutput('auto', 'make: *** [test] Error 1').parsed).toBe(false);
    expect(parseTestOutput('auto', '').parsed).toBe(false);
  });
});

describe('cargo', () => {
  const result = (p: number, f: number, i: number) =>
    `test result: ${f > 0 ? 'FAILED' : 'ok'}. ${p} passed; ${f} failed; ${i} ignored; 0 measured; 0 filtered out; finished in 0.01s`;

  it('counts a summary whose `running` header was cut off the captured tail', () => {
    expect(
      parse('cargo', 'test a ... ok', result(1, 0, 0), 'running 2 tests', result(1, 1, 0)),
    ).toEqual(ok(2, 1, 0));
  });

  it('accepts the older summary format without a duration', () => {
    expect(
      parse(
        'cargo',
        'running 1 test',
        'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out',
      ),
    ).toEqual(ok(1, 0, 0));
  });

  it('counts filtered-out tests nowhere and ignored tests as skipped', () => {
    const filtered =
      'test result: ok. 1 passed; 0 failed; 2 ignored; 0 measured; 9 filtered out; finished in 0.00s';
    expect(parse('cargo', 'running 3 tests', filtered)).toEqual(ok(1, 0, 2));
  });
});

describe('nextest', () => {
  it('ignores the parenthesised details and the cancellation note', () => {
    expect(
      parse(
        'nextest',
        '     Summary [  15.750s] 8/10 tests run: 5 passed (1 slow, 1 flaky, 1 leaky), 2 failed (1 due to being leaky), 1 exec failed, 1 timed out, 2 skipped; cancelled due to interrupt',
      ),
    ).toEqual(ok(5, 4, 2));
  });
});

describe('go', () => {
  const event = (action: string, test?: string) =>
    JSON.stringify({
      Action: action,
      Package: 'example.com/p',
      ...(test === undefined ? {} : { Test: test }),
    });

  it('counts a parent that failed on its own although its subtests passed', () => {
    expect(
      parse(
        'go',
        event('run', 'TestP'),
        event('run', 'TestP/a'),
        event('pass', 'TestP/a'),
        event('fail', 'TestP'),
        event('fail'),
      ),
    ).toEqual(ok(1, 1, 0));
  });

  it('counts a failed package without failing tests (a -timeout panic) as one failure', () => {
    expect(
      parse('go', event('run', 'TestSlow'), event('output', 'TestSlow'), event('fail')),
    ).toEqual(ok(0, 1, 0));
  });

  it('reads -v text with t.Parallel pauses and a timed-out package', () => {
    expect(
      parse(
        'go',
        '=== RUN   TestA',
        '=== PAUSE TestA',
        '=== CONT  TestA',
        '--- PASS: TestA (0.01s)',
        'panic: test timed out after 1s',
        'FAIL\texample.com/p\t1.002s',
      ),
    ).toEqual(ok(1, 1, 0));
  });
});

describe('pytest', () => {
  it('reads long durations, warnings, deselected tests and a strict xpass reported as failed', () => {
    expect(
      parse('pytest', '==== 1 failed, 3 passed, 2 deselected, 4 warnings in 65.43s (0:01:05) ===='),
    ).toEqual(ok(3, 1, 0));
  });

  it('counts several errors', () => {
    expect(parse('pytest', '2 passed, 3 errors in 0.20s')).toEqual(ok(2, 3, 0));
  });
});

describe('unittest', () => {
  it('reads Python 3.12+ `NO TESTS RAN`', () => {
    expect(parse('unittest', '', 'Ran 0 tests in 0.000s', '', 'NO TESTS RAN')).toEqual(ok(0, 0, 0));
  });

  it('never reports negative passes when subtests fail several times in one test', () => {
    expect(parse('unittest', 'Ran 1 test in 0.001s', '', 'FAILED (failures=3)')).toEqual(
      ok(0, 3, 0),
    );
  });

  it('needs the status line after `Ran`', () => {
    expect(
      parse('unittest', 'Ran 4 tests in 0.001s', 'Traceback (most recent call last):').parsed,
    ).toBe(false);
  });
});

describe('jest and vitest', () => {
  it('jest: a run where every suite failed to load', () => {
    expect(
      parse(
        'jest',
        'FAIL ./a.test.js',
        '  ● Test suite failed to run',
        '',
        'Test Suites: 1 failed, 1 total',
        'Tests:       0 total',
      ),
    ).toEqual(ok(0, 1, 0));
  });

  it('vitest: older output without a Failed Suites section', () => {
    expect(
      parse(
        'vitest',
        ' Test Files  1 passed (1)',
        '      Tests  4 passed | 1 skipped (5)',
        '   Start at  10:00:00',
      ),
    ).toEqual(ok(4, 0, 1));
  });
});

describe('mocha, node, bun, tap', () => {
  it('mocha: only pending', () => {
    expect(parse('mocha', '  0 passing (2ms)', '  3 pending')).toEqual(ok(0, 0, 3));
  });

  it('node: cancelled tests count as failed', () => {
    expect(
      parse(
        'node',
        'ℹ tests 3',
        'ℹ suites 0',
        'ℹ pass 1',
        'ℹ fail 1',
        'ℹ cancelled 1',
        'ℹ skipped 0',
        'ℹ todo 0',
      ),
    ).toEqual(ok(1, 2, 0));
  });

  it('bun: a single file', () => {
    expect(parse('bun', ' 1 pass', ' 0 fail', 'Ran 1 test across 1 file. [3.00ms]')).toEqual(
      ok(1, 0, 0),
    );
  });

  it('tap: directives are case-insensitive, escaped # is not a directive, subtests roll up', () => {
    expect(
      parse(
        'tap',
        'TAP version 14',
        '1..4',
        'ok 1 - a \\# SKIP not a directive',
        'ok 2 - b # Skip later',
        '    not ok 1 - inner',
        'not ok 3 - c # todo known',
        'ok 4 - d',
      ),
    ).toEqual(ok(2, 0, 2));
  });

  it('tap: a bail-out without a plan still fails the run', () => {
    expect(parse('tap', 'ok 1 - a', 'Bail out! no database')).toEqual(ok(1, 1, 0));
  });

  it('tap: a skip-all plan', () => {
    expect(parse('tap', '1..0 # SKIP no database')).toEqual(ok(0, 0, 0));
  });
});

describe('xctest and swift-testing', () => {
  it('xctest: with the per-case lines cut off the tail, failures mean at least one failed test', () => {
    // 2 assertion failures may come from one test or two; only the visible cases are certain.
    expect(
      parse(
        'xctest',
        '\t Executed 4 tests, with 2 failures (0 unexpected) in 0.004 (0.004) seconds',
      ),
    ).toEqual(ok(3, 1, 0));
  });

  it('swift-testing: a run that passed with known issues', () => {
    expect(
      parse(
        'swift-testing',
        '━ Test a() passed after 0.001 seconds with 1 known issue.',
        '━ Test run with 1 test passed after 0.001 seconds with 1 known issue.',
      ),
    ).toEqual(ok(1, 0, 0));
  });

  it('swift-testing: macOS SF Symbols prefixes', () => {
    expect(
      parse(
        'swift-testing',
        '\u{100884} Test b() failed after 0.001 seconds with 1 issue.',
        '\u{100884} Test run with 2 tests failed after 0.002 seconds with 1 issue.',
      ),
    ).toEqual(ok(1, 1, 0));
  });
});

describe('ctest and meson', () => {
  it('ctest: only disabled tests', () => {
    expect(
      parse(
        'ctest',
        '100% tests passed, 0 tests failed out of 1',
        '',
        'The following tests did not run:',
        '\t  2 - off (Disabled)',
      ),
    ).toEqual(ok(1, 0, 1));
  });

  it('meson: timeouts are failures', () => {
    expect(
      parse(
        'meson',
        'Ok:                 3',
        'Expected Fail:      0',
        'Fail:               0',
        'Unexpected Pass:    0',
        'Skipped:            0',
        'Timeout:            2',
      ),
    ).toEqual(ok(3, 2, 0));
  });
});
