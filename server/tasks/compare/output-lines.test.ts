import { describe, expect, it } from 'vitest';
import { leafName, maxLines, outputLinesFor } from './output-lines';

describe('leafName', () => {
  it('takes the test name out of pytest, jest, JUnit and go ids', () => {
    expect(leafName('tests/test_cart.py::TestCart::test_total')).toBe('test_total');
    expect(leafName('src/cart.test.ts › totals › adds tax')).toBe('adds tax');
    expect(leafName('com.example.CartTest.appliesDiscount')).toBe('appliesDiscount');
    expect(leafName('TestCart/sub_case')).toBe('sub_case');
  });
});

describe('outputLinesFor', () => {
  const output = [
    'collected 3 items',
    'FAILED tests/test_cart.py::test_total - AssertionError: 3 != 4',
    '    assert total() == 4',
    'E   assert 3 == 4',
    '',
    'tests/test_cart.py::test_tax PASSED',
  ].join('\n');

  it('keeps each line naming the test and the block after it', () => {
    expect(outputLinesFor(output, 'tests/test_cart.py::test_total')).toEqual({
      lines: [
        'FAILED tests/test_cart.py::test_total - AssertionError: 3 != 4',
        '    assert total() == 4',
        'E   assert 3 == 4',
      ],
      truncated: false,
      matchedBy: 'id',
    });
  });

  it('falls back to the leaf name, and finds nothing for a test never named', () => {
    expect(
      outputLinesFor('● totals › adds tax\n  expected 4', 'src/a.test.ts › totals › adds tax')
        .matchedBy,
    ).toBe('name');
    expect(outputLinesFor(output, 'tests/test_cart.py::test_gone')).toEqual({
      lines: [],
      truncated: false,
      matchedBy: null,
    });
  });

  it('caps the lines it returns', () => {
    const long = Array.from({ length: 200 }, () => 'x_test_long failed').join('\n');
    const found = outputLinesFor(long, 'x_test_long');
    expect(found.lines).toHaveLength(maxLines);
    expect(found.truncated).toBe(true);
  });
});
