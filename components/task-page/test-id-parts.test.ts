import { describe, expect, it } from 'vitest';
import { splitTestId } from './test-id-parts';

describe('splitTestId: the part of an id that may be elided, and the name that may not', () => {
  it.each([
    [
      'tests/integration/test_json_patch.py::TestOperations::test_replace_nested',
      'tests/integration/test_json_patch.py::TestOperations::',
      'test_replace_nested',
    ],
    [
      'src/calc.test.ts > calc > adds two numbers',
      'src/calc.test.ts > calc > ',
      'adds two numbers',
    ],
    ['Calculator › addition › adds', 'Calculator › addition › ', 'adds'],
    ['TestParse/empty_input', 'TestParse/', 'empty_input'],
    ['tests::adds_two_numbers', 'tests::', 'adds_two_numbers'],
    ['com.example.CalcTest.adds', 'com.example.CalcTest.', 'adds'],
    ['test_adds', '', 'test_adds'],
    ['test_calc.py::test_round[1.5-2]', 'test_calc.py::', 'test_round[1.5-2]'],
    ['calc > adds 1.5 and 2.5', 'calc > ', 'adds 1.5 and 2.5'],
    ['Array #indexOf() returns -1', 'Array #', 'indexOf() returns -1'],
  ])('%s', (id, head, name) => {
    expect(splitTestId(id)).toEqual({ head, name });
    expect(head + name).toBe(id);
  });

  it("keeps unittest's 'name (dotted.path)' ids whole: their name comes first", () => {
    expect(splitTestId('test_adds (tests.test_calc.CalcTest.test_adds)')).toEqual({
      head: '',
      name: 'test_adds (tests.test_calc.CalcTest.test_adds)',
    });
  });

  it('never leaves an empty name for an id that ends in a separator', () => {
    expect(splitTestId('suite/')).toEqual({ head: '', name: 'suite/' });
  });
});
