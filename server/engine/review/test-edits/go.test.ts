import { describe, expect, it } from 'vitest';
import { change, lines, whats } from './test-support/changes';

describe('test-in-source: Go', () => {
  // `go test` runs TestXxx functions of _test.go files only (test files by path): one in any
  // other file is the package's own function, and a fix to it is not a test edit.
  it('does not take a TestXxx function in a file not named _test.go for a test', () => {
    const file = (want: string): string =>
      lines(
        'package calc',
        'func Add(a, b int) int { return a + b }',
        'func TestAdd(t *testing.T) {',
        `\tif Add(1, 2) != ${want} { t.Fatal("}") }`,
        '}',
      );
    expect(whats(change('calc/calc.go', file('3'), file('Add(1, 2)')))).toEqual([]);
    expect(whats(change('calc/calc_test.go', file('3'), file('Add(1, 2)')))).toEqual([
      'calc/calc_test.go changed',
    ]);
    expect(whats(change('calc/calc.go', file('3'), file('3').replace('a + b', 'b + a')))).toEqual(
      [],
    );
  });
});
