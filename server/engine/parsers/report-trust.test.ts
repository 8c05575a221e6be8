import { describe, expect, it } from 'vitest';
import { parseJUnitXml } from './junit-xml';
import { parsePytest } from './pytest';
import { checkReport, leafName } from './report-trust';

const report = parseJUnitXml(
  '<testsuite><testcase classname="tests.test_a" name="test_x"/><testcase classname="tests.test_a" name="test_y[1.5]"><failure/></testcase></testsuite>',
);

describe('checkReport', () => {
  it('agrees when the console names the same tests with the same results', () => {
    const text = parsePytest(
      'tests/test_a.py::test_x PASSED [ 50%]\ntests/test_a.py::test_y[1.5] FAILED [100%]\n1 failed, 1 passed in 0.01s',
    );
    expect(checkReport(report, text)).toEqual({ agrees: true });
    expect(checkReport(report, parsePytest('1 failed, 1 passed in 0.01s'))).toEqual({
      agrees: true,
    });
  });

  it('a forgery: other totals, or the same totals on other tests', () => {
    expect(checkReport(report, parsePytest('2 failed in 0.01s'))).toEqual({
      agrees: false,
      unchecked: false,
      reason:
        "the JUnit report (1 passed, 1 failed) disagrees with the runner's output (0 passed, 2 failed)",
    });
    const swapped = parsePytest(
      'tests/test_a.py::test_x FAILED [ 50%]\ntests/test_a.py::test_y[1.5] PASSED [100%]\n1 failed, 1 passed in 0.01s',
    );
    expect(checkReport(report, swapped)).toEqual({
      agrees: false,
      unchecked: false,
      reason:
        "the JUnit report disagrees with the runner's output on test_x (failed in the output)",
    });
  });

  it('cannot check a report against a console without results', () => {
    expect(checkReport(report, parsePytest(''))).toEqual({
      agrees: false,
      unchecked: true,
      reason:
        "the JUnit report (1 passed, 1 failed) could not be checked: the runner's output shows no results",
    });
  });

  it('compares ids by their last name part, parameters whole', () => {
    expect(leafName('tests/test_a.py::TestX::test_y[a.b/c]')).toBe('test_y[a.b/c]');
    expect(leafName('tests.test_a.TestX.test_y')).toBe('test_y');
    expect(leafName('suite > case #2')).toBe('case');
  });
});
