// Tests that print summary-like lines must not move the counts. The fixtures are real runs whose
// test bodies print such lines on purpose; each case checks the fake line really is in the
// captured output (so the case cannot pass vacuously) and that the counts are the runner's own.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectRunner, parseTestOutput, type RunnerName } from './index';

const fixture = (file: string): string =>
  readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8');

const cases: readonly (readonly [RunnerName, string, string, [number, number, number]])[] = [
  [
    'cargo',
    'cargo-fail-no-fail-fast.txt',
    '\nrunning 1 test\ntest result: ok. 1 passed; 0 failed;',
    [6, 1, 2],
  ],
  ['cargo', 'cargo-nocapture.txt', '\ntest result: ok. 99 passed; 0 failed;', [6, 1, 2]],
  ['cargo', 'cargo-foreign-summaries-nocapture.txt', '\n==== 12 passed in 0.12s ====\n', [1, 1, 0]],
  [
    'nextest',
    'nextest-mixed.handwritten.txt',
    '\nSummary [   0.001s] 40 tests run: 40 passed',
    [4, 2, 2],
  ],
  ['go', 'go-mixed-v.txt', '\n--- PASS: TestFake (0.00s)\nok  \texample.com/fake', [3, 3, 2]],
  [
    'go',
    'go-mixed-json.txt',
    '"Action":"pass","Package":"example.com/mixed/calc","Test":"TestFake"',
    [3, 3, 2],
  ],
  ['pytest', 'pytest-mixed-rA.txt', '\n=========== 9 passed in 0.01s ===========\n', [6, 2, 2]],
  [
    'pytest',
    'pytest-foreign-summaries-rA.txt',
    '\ntest result: ok. 9 passed; 0 failed;',
    [2, 1, 0],
  ],
  ['unittest', 'unittest-buffered-fail.txt', '\nRan 40 tests in 0.001s\n\nOK\n', [1, 1, 0]],
  ['jest', 'jest-mixed.txt', 'Tests: 0 failed, 3 passed, 3 total', [3, 2, 2]],
  ['vitest', 'vitest-mixed.txt', '\n Tests  99 passed (99)\n', [3, 2, 2]],
  ['mocha', 'mocha-mixed.txt', '\n  99 passing (1ms)\n', [2, 2, 2]],
  ['mocha', 'mocha-mixed-tap.txt', '\n  99 passing (1ms)\n', [2, 2, 2]],
  ['node', 'node-mixed-spec.txt', '\nℹ pass 99\n', [2, 2, 2]],
  ['bun', 'bun-mixed.txt', '\n 99 pass\n 0 fail\n', [3, 2, 2]],
  [
    'xctest',
    'xctest-linux-mixed.handwritten.txt',
    '\nExecuted 99 tests, with 0 failures',
    [3, 2, 0],
  ],
  [
    'swift-testing',
    'swift-testing-mixed.handwritten.txt',
    '\n✔ Test run with 40 tests passed',
    [3, 2, 1],
  ],
  [
    'ctest',
    'ctest-mixed-output-on-failure.txt',
    '\n100% tests passed, 0 tests failed out of 9\n',
    [2, 2, 2],
  ],
  [
    'meson',
    'meson-mixed-errorlogs.txt',
    '\n100% tests passed, 0 tests failed out of 50\n',
    [2, 2, 2],
  ],
];

describe('misleading text inside test output', () => {
  it.each(cases)(
    '%s: %s keeps the real counts',
    (runner, file, fake, [passed, failed, skipped]) => {
      const output = fixture(file);
      expect(`\n${output}`).toContain(fake);
      const want = { passed, failed, skipped, parsed: true };
      expect(parseTestOutput(runner, output)).toMatchObject(want);
      expect(parseTestOutput('auto', output)).toEqual(parseTestOutput(runner, output));
      // A fake line never names a test either: the lists hold only the runner's own tests.
      const ids = parseTestOutput(runner, output).tests.map((test) => test.id);
      expect(ids.filter((id) => /fake|99 pass|40 tests/i.test(id))).toEqual([]);
    },
  );

  it('detects pytest although its tests print every other runner’s summary', () => {
    const output = fixture('pytest-foreign-summaries-q-s.txt');
    expect(output).toContain('\nRan 7 tests across 2 files.');
    expect(output).toContain('\n1..4\nok 1 - fake');
    expect(detectRunner(output)).toBe('pytest');
  });

  it('detects cargo although a failing test prints pytest, unittest, mocha and TAP summaries', () => {
    expect(detectRunner(fixture('cargo-foreign-summaries.txt'))).toBe('cargo');
  });

  it('does not let a printed `running N tests` line hide the real cargo summary', () => {
    const output = [
      'running 2 tests',
      'test a ... ok',
      'running 1 test', // printed by test b
      'test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s',
      'test b ... FAILED',
      'test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s',
    ].join('\n');
    expect(parseTestOutput('cargo', output)).toEqual({
      passed: 1,
      failed: 1,
      skipped: 0,
      parsed: true,
      tests: [
        { id: 'a', status: 'passed' },
        { id: 'b', status: 'failed' },
      ],
      buildFailed: false,
    });
  });

  it('ignores a cargo-looking line whose counts do not add up to its binary’s test count', () => {
    const output = [
      'running 3 tests',
      'test result: ok. 99 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out',
      'test a ... ok',
    ].join('\n');
    // The binary never printed its own summary (it crashed): nothing can be counted for it.
    expect(parseTestOutput('cargo', output).parsed).toBe(false);
  });
});
