import { describe, expect, it } from 'vitest';
import { isTestPath } from './index';
import { change, edits, lines, whats } from './test-support/changes';

describe('test-file: paths by convention', () => {
  it('flags a test renamed in a root tests.py', () => {
    const before = lines('def test_adds():', '    assert add(1, 2) == 3');
    expect(edits(change('tests.py', before, before.replace('test_adds', 'adds')))).toEqual([
      { path: 'tests.py', kind: 'test-file', what: 'tests.py changed' },
    ]);
  });

  it.each([
    'tests.py',
    'test.py',
    'app/tests.py',
    'src/tests.rs',
    'pkg/calc_test.go',
    'tests/integration.rs',
    'web/__tests__/a.js',
    'src/a.test.ts',
    'src/a.spec.js',
    'test_calc.py',
    'calc_test.py',
    'src/test/java/com/x/Calc.java',
  ])('%s is a test file', (path) => {
    expect(isTestPath(path)).toBe(true);
    expect(edits(change(path, 'a', 'b')).map((e) => e.kind)).toEqual(['test-file']);
  });

  it.each(['src/contest.py', 'src/testing.py', 'src/latest.rs', 'attest.py', 'src/tester.ts'])(
    '%s is not a test file',
    (path) => {
      expect(isTestPath(path)).toBe(false);
    },
  );

  it('says added and deleted', () => {
    expect(
      whats(change('tests/test_a.py', null, 'x'), change('tests/test_b.py', 'x', null)),
    ).toEqual(['tests/test_a.py added', 'tests/test_b.py deleted']);
  });
});
