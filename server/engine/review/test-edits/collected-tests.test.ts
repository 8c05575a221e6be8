import { describe, expect, it } from 'vitest';
import { testEditorsOf, testEditsOf, type FileChange } from './index';
import { change, collectionWith, lines, whats, whatsIn } from './test-support/changes';

// Issue 23, item 5: a class or function is a test when a runner collects it, not by its name.

/** A JSON-Patch library whose `test` operation is a class named like a test. */
const opsPy = (compare: string): string =>
  lines(
    'class PatchOperation:',
    '    def __init__(self, operation):',
    '        self.operation = operation',
    '',
    '',
    'class TestOperation(PatchOperation):',
    '    """The "test" operation: the value at the path equals the given one."""',
    '',
    '    def apply(self, obj):',
    `        if ${compare}:`,
    '            raise JsonPatchTestFailed(self.operation)',
    '        return obj',
  );
const testOpsPy = (expected: string): string =>
  lines(
    'from jsonpatch.ops import TestOperation',
    '',
    'def test_equal_values_pass():',
    `    assert TestOperation({"value": 1}).apply({"a": 1}) == ${expected}`,
  );
const jsonpatch: Readonly<Record<string, string>> = {
  'pyproject.toml': lines(
    '[project]',
    'name = "jsonpatch"',
    '',
    '[tool.pytest.ini_options]',
    'testpaths = ["tests"]',
  ),
  'jsonpatch/__init__.py': '',
  'jsonpatch/ops.py': opsPy('obj == self.operation["value"]'),
  'tests/test_ops.py': testOpsPy('{"a": 1}'),
};

const reader =
  (files: Readonly<Record<string, string>>) =>
  (path: string): Promise<string | null> =>
    Promise.resolve(files[path] ?? null);

describe('a TestOperation library class is library code', () => {
  const right = {
    name: 'right',
    edits: [{ path: 'jsonpatch/ops.py', content: opsPy('obj != self.operation["value"]') }],
    delete: [],
  };
  const cheat = {
    name: 'cheat',
    edits: [{ path: 'tests/test_ops.py', content: testOpsPy('None') }],
    delete: [],
  };

  it.each<[string, readonly string[] | undefined]>([
    ['pytest -q', ['pytest', '-q']],
    ['python -m pytest', ['python', '-m', 'pytest']],
    ['python -m unittest', ['python3', '-m', 'unittest']],
    ['a command that names no runner', ['tox', '-e', 'py311']],
    ['no command', undefined],
  ])('a right fix to it is not demoted (%s); a cheat still is', async (_, command) => {
    const demote = await testEditorsOf([right, cheat], reader(jsonpatch), command);
    expect([...demote.keys()]).toEqual(['cheat']);
    expect(demote.get('cheat')).toBe(
      'it edits tests, which this task does not allow (tests/test_ops.py changed)',
    );
  });

  it('was a test class to the old name-only reading: the module names it like one', () => {
    // What the runner would take for a test if it collected this module: the same class.
    const collectsAll = collectionWith({ 'pytest.ini': '[pytest]\npython_files = *.py\n' });
    expect(
      whatsIn(
        collectsAll,
        change(
          'jsonpatch/ops.py',
          jsonpatch['jsonpatch/ops.py'] ?? '',
          right.edits[0]?.content ?? '',
        ),
      ),
    ).toEqual(["test class 'TestOperation' changed in jsonpatch/ops.py"]);
  });
});

describe('honest fixes to library code named like tests are not test edits', () => {
  it.each<[string, string, string, string]>([
    [
      'a Python def test_value() helper in library code',
      'mylib/values.py',
      lines('def test_value(x):', '    return x > 0'),
      lines('def test_value(x):', '    return x >= 0'),
    ],
    [
      'a Python class Test* in a library module',
      'mylib/ops.py',
      lines('class TestOperation:', '    def apply(self):', '        return 1'),
      lines('class TestOperation:', '    def apply(self):', '        return 2'),
    ],
    [
      'a Go function named TestLike in a file not named _test.go',
      'pkg/like.go',
      lines('package pkg', '', 'func TestLike(a, b string) bool {', '\treturn a == b', '}'),
      lines(
        'package pkg',
        '',
        'func TestLike(a, b string) bool {',
        '\treturn a == b || a == "*"',
        '}',
      ),
    ],
    [
      'a JS library whose router registers handlers with test()',
      'src/router.js',
      lines("test('/users', (req) => {", '  return req.id;', '});'),
      lines("test('/users', (req) => {", '  return req.id ?? null;', '});'),
    ],
    [
      'a JS BDD-style helper library calling its own describe() and it()',
      'src/spec-dsl.ts',
      lines(
        'export function describe(name: string, body: () => void) { body(); }',
        'export function it(name: string, body: () => void) { body(); }',
        "describe('cli', () => {",
        "  it('parses', () => parse(['-a']));",
        '});',
      ),
      lines(
        'export function describe(name: string, body: () => void) { body(); }',
        'export function it(name: string, body: () => void) { body(); }',
        "describe('cli', () => {",
        "  it('parses', () => parse(['-a', '--']));",
        '});',
      ),
    ],
    [
      'a test() method in a library class',
      'src/matcher.ts',
      lines(
        'export class Matcher {',
        '  test(value: string) {',
        '    return value.length > 0;',
        '  }',
        '}',
      ),
      lines(
        'export class Matcher {',
        '  test(value: string) {',
        '    return value.length >= 0;',
        '  }',
        '}',
      ),
    ],
  ])('%s', (_, path, before, after) => {
    expect(testEditsOf([change(path, before, after)])).toEqual([]);
  });

  it('a module outside testpaths is not collected even by a catch-all python_files', () => {
    const project = collectionWith({
      'setup.cfg': lines('[tool:pytest]', 'python_files = *.py', 'testpaths = checks'),
    });
    const library = (n: string): string => lines('def test_connection():', `    return ${n}`);
    expect(whatsIn(project, change('mylib/db.py', library('1'), library('2')))).toEqual([]);
    expect(whatsIn(project, change('checks/db.py', library('1'), library('2')))).toEqual([
      "test 'test_connection' changed in checks/db.py",
    ]);
  });

  it('path arguments replace testpaths, and option values are not paths', () => {
    const project = collectionWith(
      { 'pytest.ini': lines('[pytest]', 'python_files = *.py', 'testpaths = elsewhere') },
      ['pytest', '-k', 'add', '-p', 'no:cacheprovider', 'checks/'],
    );
    const module = (n: string): string =>
      lines('class TestCalc:', `    def test_adds(self): assert ${n}`);
    expect(whatsIn(project, change('checks/calc.py', module('1'), module('2')))).toEqual([
      "test 'TestCalc.test_adds' changed in checks/calc.py",
    ]);
    expect(whatsIn(project, change('add/calc.py', module('1'), module('2')))).toEqual([]);
    expect(whatsIn(project, change('elsewhere/calc.py', module('1'), module('2')))).toEqual([]);
  });
});

describe('cheats in files the runner collects are still caught', () => {
  const checkCalc = (body: string): string =>
    lines(
      'def near(a, b):',
      `    return ${body}`,
      '',
      'def check_adds():',
      '    assert near(1 + 2, 3)',
      '',
      'def test_adds():',
      '    assert near(3, 3)',
    );
  const weakened: FileChange = change(
    'calc/check_calc.py',
    checkCalc('abs(a - b) < 1e-9'),
    checkCalc('True'),
  );

  it.each<[string, Readonly<Record<string, string>>, string]>([
    ['pytest.ini', { 'pytest.ini': '[pytest]\npython_files = check_*.py\n' }, 'pytest.ini'],
    ['.pytest.ini', { '.pytest.ini': '[pytest]\npython_files = check_*.py\n' }, '.pytest.ini'],
    ['pytest.toml', { 'pytest.toml': '[pytest]\npython_files = ["check_*.py"]\n' }, 'pytest.toml'],
    [
      'pyproject [tool.pytest.ini_options], a string',
      { 'pyproject.toml': '[tool.pytest.ini_options]\npython_files = "check_*.py test_*.py"\n' },
      'pyproject.toml',
    ],
    [
      'pyproject [tool.pytest], an array over lines',
      { 'pyproject.toml': '[tool.pytest]\npython_files = [\n  "check_*.py",  # ours\n]\n' },
      'pyproject.toml',
    ],
    [
      'setup.cfg',
      { 'setup.cfg': '[metadata]\nname = x\n[tool:pytest]\npython_files =\n    check_*.py\n' },
      'setup.cfg',
    ],
    [
      'tox.ini',
      { 'tox.ini': '[tox]\nenvlist = py311\n[pytest]\npython_files = check_*.py\n' },
      'tox.ini',
    ],
  ])('a configured python_files = check_*.py file, helpers and all (%s)', (_, files, source) => {
    // The helper `near` is not a test; the file is the project's test file, so it counts whole.
    expect(whatsIn(collectionWith(files, ['pytest']), weakened)).toEqual([
      `calc/check_calc.py changed (pytest collects it: python_files check_*.py in ${source})`,
    ]);
  });

  it('pytest reads the first configuration it finds: pytest.ini before pyproject.toml', () => {
    const files = {
      'pytest.ini': '[pytest]\npython_files = check_*.py\n',
      'pyproject.toml': '[tool.pytest.ini_options]\npython_files = "spec_*.py"\n',
    };
    expect(whatsIn(collectionWith(files, ['pytest']), weakened)).toHaveLength(1);
    const spec = change('calc/spec_calc.py', checkCalc('1'), checkCalc('True'));
    expect(whatsIn(collectionWith(files, ['pytest']), spec)).toEqual([]);
  });

  it('python_files given on the command line (-o), and unittest discovery patterns', () => {
    expect(
      whatsIn(collectionWith({}, ['pytest', '-o', 'python_files=check_*.py']), weakened),
    ).toEqual([
      'calc/check_calc.py changed (pytest collects it: python_files check_*.py in the command)',
    ]);
    const unittest = collectionWith({}, [
      'python',
      '-m',
      'unittest',
      'discover',
      '-s',
      'calc',
      '-p',
      'check_*.py',
    ]);
    expect(whatsIn(unittest, weakened)).toEqual([
      'calc/check_calc.py changed (unittest discovers check_*.py files)',
    ]);
    // unittest's default pattern is test*.py: `testcalc.py` is a test module to it.
    const testcalc = change('calc/testcalc.py', checkCalc('1'), checkCalc('True'));
    expect(whatsIn(collectionWith({}, ['python', '-m', 'unittest']), testcalc)).toEqual([
      'calc/testcalc.py changed (unittest discovers test*.py files)',
    ]);
  });

  it('a TestX class in a module the runner collects, and configured class and function names', () => {
    const collectsAll = collectionWith(
      {
        'pytest.ini': lines(
          '[pytest]',
          'python_files = *.py',
          'python_classes = Check',
          'python_functions = check_',
        ),
      },
      ['pytest'],
    );
    const module = (n: string): string =>
      lines(
        'def test_value(x):',
        `    return x > ${n}`,
        '',
        'class CheckAdd:',
        `    def check_one(self): assert add(0, 1) == ${n}`,
        '',
        'class Other(unittest.TestCase):',
        `    def test_two(self): assert add(1, 1) == ${n}`,
      );
    // `test_value` is not a test to this pytest (python_functions = check_); a TestCase's
    // methods are, whatever python_functions says (unittest collects them).
    expect(whatsIn(collectsAll, change('calc/core.py', module('1'), module('2')))).toEqual([
      "test 'CheckAdd.check_one' changed in calc/core.py",
      "test class 'Other' changed in calc/core.py",
    ]);
  });

  it('files a JS runner collects by its configuration', () => {
    const spec = (n: string): string =>
      lines("describe('add', () => {", `  it('adds', () => expect(add(1, 2)).toBe(${n}));`, '});');
    const weakenedSpec = change('src/add.check.ts', spec('3'), spec('add(1, 2)'));
    const cases: [Readonly<Record<string, string>>, string][] = [
      [
        { 'jest.config.js': "module.exports = { testMatch: ['<rootDir>/src/**/*.check.ts'] };\n" },
        'jest collects it: testMatch <rootDir>/src/**/*.check.ts in jest.config.js',
      ],
      [
        { 'package.json': JSON.stringify({ jest: { testRegex: '\\.check\\.ts$' } }) },
        'jest collects it: testRegex \\.check\\.ts$ in package.json jest',
      ],
      [
        {
          'vitest.config.ts':
            "export default defineConfig({ test: { include: ['src/**/*.check.ts'], coverage: { include: ['src/**'] } } });\n",
        },
        'vitest collects it: test.include src/**/*.check.ts in vitest.config.ts',
      ],
      [
        { '.mocharc.yml': "spec:\n  - 'src/**/*.check.ts'\n" },
        'mocha collects it: spec src/**/*.check.ts in .mocharc.yml',
      ],
    ];
    for (const [files, why] of cases) {
      expect(whatsIn(collectionWith(files), weakenedSpec)).toEqual([
        `src/add.check.ts changed (${why})`,
      ]);
    }
    // Not configured so: a library file's own describe() and it().
    expect(whats(weakenedSpec)).toEqual([]);
  });

  it('a JS configuration that is not literal: any file may hold tests, found by name', () => {
    const util = (n: string): string =>
      lines(
        'export const add = (a, b) => a + b;',
        "it('adds', () => {",
        `  expect(add(1, 2)).toBe(${n});`,
        '});',
      );
    const unreadable = collectionWith({
      'jest.config.js':
        "const base = require('./base');\nmodule.exports = { testMatch: [...base.testMatch, '**/*.check.ts'] };\n",
    });
    expect(whatsIn(unreadable, change('src/util.ts', util('3'), util('4')))).toEqual([
      "test 'adds' changed in src/util.ts",
    ]);
  });

  it('tests that are marked rather than named count in any file', () => {
    const rust = (n: number): string =>
      lines(
        'pub fn add() -> i32 { 3 }',
        '#[cfg(test)]',
        'mod tests {',
        `    #[test] fn adds() { assert_eq!(super::add(), ${n}); }`,
        '}',
      );
    const vitest = (n: number): string =>
      lines(
        'export const add = (a, b) => a + b;',
        'if (import.meta.vitest) {',
        "  it('adds', () => {",
        `    expect(add(1, 2)).toBe(${n});`,
        '  });',
        '}',
      );
    expect(whats(change('src/lib.rs', rust(3), rust(4)))).toEqual([
      "test 'tests::adds' changed in src/lib.rs",
    ]);
    expect(whats(change('src/add.ts', vitest(3), vitest(4)))).toEqual([
      "test 'adds' changed in src/add.ts",
    ]);
    expect(whats(change('calc/calc_test.go', 'package calc\n', 'package calc\n// x\n'))).toEqual([
      'calc/calc_test.go changed',
    ]);
  });
});

describe('the configuration read is the base’s, read once', () => {
  it('a hypothesis that changes pytest.ini to stop collecting its test file is flagged for both', async () => {
    const base = {
      'pytest.ini': '[pytest]\npython_files = check_*.py\n',
      'calc/check_calc.py': lines('def test_adds():', '    assert 1 + 2 == 3'),
    };
    const demote = await testEditorsOf(
      [
        {
          name: 'narrows',
          edits: [
            { path: 'pytest.ini', content: '[pytest]\npython_files = nothing_*.py\n' },
            { path: 'calc/check_calc.py', content: lines('def test_adds():', '    assert True') },
          ],
          delete: [],
        },
      ],
      reader(base),
      ['pytest'],
    );
    expect(demote.get('narrows')).toBe(
      'it edits tests, which this task does not allow (pytest.ini changed; calc/check_calc.py changed (pytest collects it: python_files check_*.py in pytest.ini))',
    );
  });

  it('reads each configuration file once, and none where only Rust or Go changed', async () => {
    const reads: string[] = [];
    const counting = (path: string): Promise<string | null> => {
      reads.push(path);
      return Promise.resolve(jsonpatch[path] ?? null);
    };
    const edit = (path: string) => ({ name: path, edits: [{ path, content: 'x' }], delete: [] });
    await testEditorsOf([edit('src/lib.rs'), edit('pkg/a.go')], counting, ['cargo', 'test']);
    // Only the changed files themselves, as before the change.
    expect(reads).toEqual(['src/lib.rs', 'pkg/a.go']);
    await testEditorsOf([edit('a/x.py'), edit('b/y.py'), edit('src/z.ts')], counting, undefined);
    const configReads = reads.filter((p) => !/^(?:a|b|src)\//.test(p));
    expect(new Set(configReads).size).toBe(configReads.length);
    expect(configReads).toContain('pyproject.toml');
    expect(configReads).toContain('jest.config.js');
  });

  it('a configuration that cannot be read leaves the runners’ defaults', async () => {
    const failing = (path: string): Promise<string | null> =>
      path.endsWith('.py') ? Promise.resolve(opsPy('1')) : Promise.reject(new Error('EIO'));
    const demote = await testEditorsOf(
      [{ name: 'right', edits: [{ path: 'jsonpatch/ops.py', content: opsPy('2') }], delete: [] }],
      failing,
      ['pytest'],
    );
    expect([...demote.keys()]).toEqual([]);
  });
});
