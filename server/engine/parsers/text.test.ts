import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseTestOutput, stripAnsi, type TestCounts } from './index';
import { toLines } from './text';

const fixture = (file: string): string =>
  readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8');

describe('ANSI escape sequences', () => {
  it('strips colours, libtest’s charset resets, hyperlinks and cursor moves', () => {
    expect(stripAnsi('test a ... \x1b[32mok\x1b(B\x1b[m')).toBe('test a ... ok');
    expect(stripAnsi('\x1b]8;;https://example.com\x07link\x1b]8;;\x07')).toBe('link');
    expect(stripAnsi('\x1b[2K\x1b[1Gdone')).toBe('done');
  });

  it.each([
    ['cargo', 'cargo-fail-color.txt', 'cargo-fail-no-fail-fast.txt'],
    ['jest', 'jest-mixed-color.txt', 'jest-mixed.txt'],
    ['vitest', 'vitest-mixed-color.txt', 'vitest-mixed.txt'],
    ['mocha', 'mocha-mixed-color.txt', 'mocha-mixed.txt'],
  ] as const)('%s: coloured output (%s) parses like the plain run', (runner, coloured, plain) => {
    const output = fixture(coloured);
    expect(output).toContain('\x1b[');
    // Two runs of one tree: the same counts and the same ids (parallel tests finish in any order).
    const sorted = ({ tests, ...summary }: TestCounts) => ({
      ...summary,
      tests: [...tests].sort((a, b) => a.id.localeCompare(b.id)),
    });
    expect(sorted(parseTestOutput(runner, output))).toEqual(
      sorted(parseTestOutput(runner, fixture(plain))),
    );
    expect(parseTestOutput(runner, output).parsed).toBe(true);
  });

  it('reads pytest’s coloured summary line', () => {
    const output = fixture('pytest-pass-color-rA.txt');
    expect(output).toContain('\x1b[32m');
    expect(parseTestOutput('pytest', output)).toMatchObject({
      passed: 2,
      failed: 0,
      skipped: 0,
      parsed: true,
    });
    expect(parseTestOutput('pytest', output).tests.map((test) => test.id)).toEqual([
      'test_pass.py::test_a',
      'test_pass.py::test_b',
    ]);
  });
});

describe('line splitting', () => {
  it('starts a new line at a lone carriage return, as progress bars redraw with it', () => {
    expect(toLines('a\r\nRUNS x\rTests:       1 passed, 1 total\nb')).toEqual([
      'a',
      'RUNS x',
      'Tests:       1 passed, 1 total',
      'b',
    ]);
  });
});
