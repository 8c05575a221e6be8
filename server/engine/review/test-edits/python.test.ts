import { describe, expect, it } from 'vitest';
import type { FileChange } from './index';
import {
  change,
  lines,
  pytestInModules,
  whats as whatsByDefault,
  whatsIn,
} from './test-support/changes';

// Tests beside code in a module pytest collects (`python_files = *.py`): found by their names.
// In a module no runner collects, the same names are the library's own (collected-tests.test.ts).
describe('test-in-source: Python, in a module the runner collects', () => {
  const whats = (...changes: FileChange[]): string[] => whatsIn(pytestInModules, ...changes);
  const module = (check: string, code = 'return a + b'): string =>
    lines(
      'def add(a, b):',
      `    ${code}`,
      '',
      '',
      'def test_adds():',
      `    ${check}`,
      '    """A docstring',
      'with a line at column 0."""',
      '',
      '',
      'class TestCalc:',
      '    def test_zero(self):',
      '        assert add(0, 0) == 0',
      '',
      '    def helper(self):',
      '        return 1',
    );

  it('flags a test function changed in a source file, by name', () => {
    expect(
      whats(change('calc.py', module('assert add(1, 2) == 3'), module('assert True'))),
    ).toEqual(["test 'test_adds' changed in calc.py"]);
  });

  it('does not flag an honest fix outside the tests', () => {
    expect(
      whats(change('calc.py', module('assert 1', 'return a - b'), module('assert 1'))),
    ).toEqual([]);
  });

  it('names a method by its class, and a helper change as the class changing', () => {
    const before = module('assert 1');
    expect(whats(change('calc.py', before, before.replace('add(0, 0) == 0', 'True')))).toEqual([
      "test 'TestCalc.test_zero' changed in calc.py",
    ]);
    expect(whats(change('calc.py', before, before.replace('return 1', 'return 2')))).toEqual([
      "test class 'TestCalc' changed in calc.py",
    ]);
  });

  it('flags a skip decorator added above a test', () => {
    const before = module('assert 1');
    const after = before.replace('def test_adds', '@pytest.mark.skip\ndef test_adds');
    expect(whats(change('calc.py', before, after))).toEqual([
      "test 'test_adds' changed in calc.py",
    ]);
  });

  it('flags a renamed test as one removed and one added', () => {
    const before = module('assert 1');
    expect(whats(change('calc.py', before, before.replace('test_adds', 'adds')))).toEqual([
      "test 'test_adds' removed in calc.py",
    ]);
  });

  it('flags a changed doctest', () => {
    const doc = (expected: string): string =>
      lines(
        'def add(a, b):',
        '    """',
        '    >>> add(1, 2)',
        `    ${expected}`,
        '    """',
        '    return a + b',
      );
    expect(whats(change('calc.py', doc('3'), doc('4')))).toEqual(['doctests changed in calc.py']);
    // Doctests are marked by `>>>`, not by a name: they count in any module.
    expect(whatsByDefault(change('calc.py', doc('3'), doc('4')))).toEqual([
      'doctests changed in calc.py',
    ]);
  });
});
