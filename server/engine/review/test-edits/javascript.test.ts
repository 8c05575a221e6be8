import { describe, expect, it } from 'vitest';
import { change, edits, lines, whats } from './test-support/changes';

describe('test-in-source: JavaScript and TypeScript', () => {
  const util = (assertion: string, code = 'return a + b;'): string =>
    lines(
      'export function add(a: number, b: number): number {',
      `  ${code}`,
      '}',
      '',
      'const pattern = /[(]/;',
      'const text = `${add(1, 2)} )`;',
      '',
      'if (import.meta.vitest) {',
      '  const { describe, it, expect } = import.meta.vitest;',
      "  describe('add', () => {",
      "    it('adds', () => {",
      `      ${assertion}`,
      '    });',
      "    it.each([[0, 0]])('zero %i', (a, b) => {",
      '      expect(add(a, b)).toBe(0);',
      '    });',
      '  });',
      '}',
    );

  it('flags an it block body changed in src/util.ts', () => {
    const before = util('expect(add(1, 2)).toBe(3);');
    const after = util('expect(add(1, 2)).toBeDefined();');
    expect(whats(change('src/util.ts', before, after))).toEqual([
      "test 'add > adds' changed in src/util.ts",
    ]);
  });

  it('does not flag code changed outside the tests in the same file', () => {
    const before = util('expect(add(1, 2)).toBe(3);', 'return a - b;');
    const after = util('expect(add(1, 2)).toBe(3);');
    expect(whats(change('src/util.ts', before, after))).toEqual([]);
  });

  it('flags .only and .skip added (the call changes), and a describe changed around its tests', () => {
    const before = util('expect(add(1, 2)).toBe(3);');
    expect(
      whats(change('src/util.ts', before, before.replace("it('adds'", "it.skip('adds'"))),
    ).toEqual(["test 'add > adds' changed in src/util.ts"]);
    expect(
      whats(
        change(
          'src/util.ts',
          before,
          before.replace(
            "describe('add', () => {",
            "describe('add', () => {\n    beforeEach(() => vi.useFakeTimers());",
          ),
        ),
      ),
    ).toEqual(["test suite 'add' changed in src/util.ts"]);
  });

  it('does not take a regex .test(), a method named test or a test() helper call for tests', () => {
    const before = lines(
      'const ok = /a/.test(input);',
      'class Check { test(a, b) { return a < b; } }',
      'function test(name, value) { return name === value; }',
      "const same = test('a', value);",
    );
    const after = before.replace(/a < b/, 'a <= b').replace("'a', value", "'b', value");
    expect(whats(change('src/check.js', before, after))).toEqual([]);
  });

  it('flags a test file by path, not by its content', () => {
    expect(edits(change('src/util.test.ts', 'a', 'b'))).toEqual([
      { path: 'src/util.test.ts', kind: 'test-file', what: 'src/util.test.ts changed' },
    ]);
  });
});
