import { describe, expect, it } from 'vitest';
import { goJsonText } from './go-json-text';
import { parseJsJsonReport } from './js-json-report';
import { parsePytest } from './pytest';
import { parsePytestJUnit } from './pytest-junit';
import { parseUnittest } from './unittest';
import { parseUnittestReport } from './unittest-report';

describe('reports of reporters Shadowbox adds', () => {
  it("pytest's xunit1 JUnit report is read with pytest's node ids", () => {
    const xml = [
      '<testsuites><testsuite tests="3">',
      '<testcase classname="tests.test_a.TestX" name="test_one" file="tests/test_a.py" line="2"><failure message="x"/></testcase>',
      '<testcase classname="tests.test_a" name="test_p[a.b]" file="tests/test_a.py" line="3"/>',
      '<testcase classname="tests.test_a" name="test_s" file="tests/test_a.py" line="5"><skipped/></testcase>',
      '</testsuite></testsuites>',
    ].join('');
    expect(parsePytestJUnit(xml).tests).toEqual([
      { id: 'tests/test_a.py::TestX::test_one', status: 'failed' },
      { id: 'tests/test_a.py::test_p[a.b]', status: 'passed' },
      { id: 'tests/test_a.py::test_s', status: 'skipped' },
    ]);
  });

  it('jest and vitest JSON reports are read with the consoles’ ids; a file that did not run fails once', () => {
    const report = JSON.stringify({
      testResults: [
        {
          name: '/ws/test/a.test.js',
          status: 'failed',
          message: '',
          assertionResults: [
            { ancestorTitles: ['math'], title: 'adds', status: 'failed' },
            { ancestorTitles: [], title: 'top', status: 'passed' },
            { ancestorTitles: [], title: 'later', status: 'todo' },
          ],
        },
        {
          name: '/ws/test/b.test.js',
          status: 'failed',
          message: 'SyntaxError',
          assertionResults: [],
        },
      ],
    });
    expect(parseJsJsonReport(report, 'jest', '/ws').tests).toEqual([
      { id: 'test/a.test.js › math › adds', status: 'failed' },
      { id: 'test/a.test.js › top', status: 'passed' },
      { id: 'test/a.test.js › later', status: 'skipped' },
      { id: 'test/b.test.js', status: 'failed', output: ['SyntaxError'] },
    ]);
    expect(parseJsJsonReport(report, 'vitest', '/ws').tests[0]?.id).toBe(
      'test/a.test.js > math > adds',
    );
    expect(parseJsJsonReport('not json', 'jest', '/ws').parsed).toBe(false);
  });

  it("our unittest runner's report; anything malformed is unread", () => {
    const ok =
      '{"tests":[{"id":"m.T.test_a","status":"failed"},{"id":"m.T.test_b","status":"passed"}]}';
    expect(parseUnittestReport(ok)).toMatchObject({ passed: 1, failed: 1, parsed: true });
    expect(parseUnittestReport('{"tests":[{"id":1,"status":"passed"}]}').parsed).toBe(false);
  });

  it('go test -json is shown as the text it encodes', () => {
    const events = [
      '"Output":"=== RUN   TestA\\n"}',
      '{"Action":"run","Package":"x","Test":"TestA"}',
      '{"Action":"output","Package":"x","Test":"TestA","Output":"--- FAIL: TestA (0.00s)\\n"}',
      '# x [x.test]',
      '{"Action":"fail","Package":"x"}',
    ].join('\n');
    expect(goJsonText(events)).toBe('--- FAIL: TestA (0.00s)\n# x [x.test]');
  });

  it('unittest without -v names its failures in their reports: kept as `failing`', () => {
    const output = [
      'F.E',
      '======================================================================',
      'FAIL: test_add (test_calc.TestCalc.test_add)',
      '----------------------------------------------------------------------',
      'AssertionError: 1 != 5',
      '======================================================================',
      'ERROR: test_env (test_calc.TestCalc)',
      '----------------------------------------------------------------------',
      'KeyError: x',
      '',
      '----------------------------------------------------------------------',
      'Ran 3 tests in 0.001s',
      '',
      'FAILED (failures=1, errors=1)',
    ].join('\n');
    expect(parseUnittest(output)).toMatchObject({
      failed: 2,
      tests: [],
      failing: ['test_calc.TestCalc.test_add', 'test_calc.TestCalc.test_env'],
    });
  });

  it('pytest -q names its failures: kept as `failing` for an inferred verdict', () => {
    const output = [
      '.F.F',
      '=========================== short test summary info ============================',
      'FAILED t.py::test_a - assert 1 == 2',
      'FAILED t.py::test_b - assert False',
      '2 failed, 2 passed in 0.03s',
    ].join('\n');
    expect(parsePytest(output)).toMatchObject({
      failed: 2,
      tests: [],
      failing: ['t.py::test_a', 't.py::test_b'],
    });
  });
});
