import { describe, expect, it } from 'vitest';
import { change, lines, whats } from './test-support/changes';

describe('test-in-source: Go', () => {
  it('flags a TestXxx function changed in a file not named _test.go', () => {
    const file = (want: string): string =>
      lines(
        'package calc',
        'func Add(a, b int) int { return a + b }',
        'func TestAdd(t *testing.T) {',
        `\tif Add(1, 2) != ${want} { t.Fatal("}") }`,
        '}',
      );
    expect(whats(change('calc/calc.go', file('3'), file('Add(1, 2)')))).toEqual([
      "test 'TestAdd' changed in calc/calc.go",
    ]);
    expect(whats(change('calc/calc.go', file('3'), file('3').replace('a + b', 'b + a')))).toEqual(
      [],
    );
  });
});
