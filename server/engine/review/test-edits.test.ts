import { describe, expect, it } from 'vitest';
import { isTestPath, testEditsOf, type FileChange, type TestEdit } from './test-edits';

const lines = (...text: string[]): string => `${text.join('\n')}\n`;
const change = (path: string, before: string | null, after: string | null): FileChange => ({
  path,
  before,
  after,
});
const edits = (...changes: FileChange[]): readonly TestEdit[] => testEditsOf(changes);
const whats = (...changes: FileChange[]): string[] => edits(...changes).map((e) => e.what);

const rustLib = (assertion: string, add = 'a + b'): string =>
  lines(
    'pub fn add(a: i32, b: i32) -> i32 {',
    `    ${add}`,
    '}',
    '',
    '#[cfg(test)]',
    'mod tests {',
    '    use super::*;',
    '',
    '    #[test]',
    '    fn adds() {',
    '        assert_eq!(add(1, 2), 3);',
    `        ${assertion}`,
    '    }',
    '',
    '    #[test]',
    '    fn zero() {',
    '        assert_eq!(add(0, 0), 0);',
    '    }',
    '}',
  );

describe('test-in-source: Rust', () => {
  it('flags an assert deleted from a #[cfg(test)] module in src/lib.rs', () => {
    const before = rustLib('assert_eq!(add(-1, 1), 0);');
    const after = rustLib('');
    expect(edits(change('src/lib.rs', before, after))).toEqual([
      {
        path: 'src/lib.rs',
        kind: 'test-in-source',
        what: "test 'tests::adds' changed in src/lib.rs",
      },
    ]);
  });

  it('does not flag an honest fix to src/lib.rs outside the #[cfg(test)] module', () => {
    const before = rustLib('assert_eq!(add(-1, 1), 0);', 'a - b');
    const after = rustLib('assert_eq!(add(-1, 1), 0);', 'a + b');
    expect(edits(change('src/lib.rs', before, after))).toEqual([]);
  });

  it('does not flag a reformatted test whose tokens are the same', () => {
    const before = rustLib('assert_eq!(add(-1, 1), 0);');
    const after = before.replace('assert_eq!(add(-1, 1), 0);', 'assert_eq!( add(-1, 1),\n 0 );');
    expect(edits(change('src/lib.rs', before, after))).toEqual([]);
  });

  it('flags a helper changed inside the test module as a change of the module', () => {
    const before = lines('#[cfg(test)]', 'mod tests {', '    fn two() -> i32 { 2 }', '}');
    const after = lines('#[cfg(test)]', 'mod tests {', '    fn two() -> i32 { 3 }', '}');
    expect(whats(change('src/lib.rs', before, after))).toEqual([
      "test module 'tests' changed in src/lib.rs",
    ]);
  });

  it('flags a test module added or removed once, not once per test inside it', () => {
    const plain = lines('pub fn add(a: i32, b: i32) -> i32 {', '    a + b', '}');
    const withTests = rustLib('');
    expect(whats(change('src/lib.rs', withTests, plain))).toEqual([
      "test module 'tests' removed in src/lib.rs",
    ]);
    expect(whats(change('src/math.rs', null, withTests))).toEqual([
      "test module 'tests' added in src/math.rs",
    ]);
  });

  it('flags #[test] functions outside a module, #[ignore] added, and cfg(test) stubs', () => {
    const before = lines(
      'fn real() -> u8 { 1 }',
      '#[test]',
      'fn works() { assert!(real() == 1); }',
    );
    const ignored = before.replace('#[test]', '#[test]\n#[ignore]');
    expect(whats(change('src/lib.rs', before, ignored))).toEqual([
      "test 'works' changed in src/lib.rs",
    ]);
    const stubbed = lines(
      '#[cfg(test)]',
      'fn real() -> u8 { 1 }',
      '#[cfg(not(test))]',
      'fn real() -> u8 { 2 }',
    );
    expect(whats(change('src/lib.rs', lines('fn real() -> u8 { 2 }'), stubbed))).toEqual([
      "test-only item 'real' added in src/lib.rs",
    ]);
  });

  it('finds tokio tests and tests whose bodies hold braces in strings, chars and comments', () => {
    const body = (n: string): string =>
      lines(
        '#[tokio::test(flavor = "multi_thread")]',
        "async fn braces<'a>() {",
        `    let s = "}}}"; let c = '}'; let r = r#"}"#; // }`,
        `    /* } /* nested } */ */ assert_eq!(${n}, 1);`,
        '}',
        'fn after() {}',
      );
    expect(whats(change('src/lib.rs', body('1'), body('2')))).toEqual([
      "test 'braces' changed in src/lib.rs",
    ]);
  });

  it('flags a changed doc-test example, not a changed doc sentence', () => {
    const doc = (sentence: string, example: string): string =>
      lines(`/// ${sentence}`, '///', '/// ```', `/// ${example}`, '/// ```', 'pub fn add() {}');
    expect(
      whats(change('src/lib.rs', doc('Adds.', 'assert_eq!(add(1, 2), 3);'), doc('Adds.', ''))),
    ).toEqual(['doc tests changed in src/lib.rs']);
    expect(whats(change('src/lib.rs', doc('Adds.', 'x'), doc('Adds two numbers.', 'x')))).toEqual(
      [],
    );
  });

  it('counts a whole file under #![cfg(test)] as a test module', () => {
    const before = lines('#![cfg(test)]', 'use super::*;', 'fn a() {}');
    expect(whats(change('src/checks.rs', before, before.replace('a()', 'b()')))).toEqual([
      "test module '(file)' changed in src/checks.rs",
    ]);
  });
});

describe('test-in-source: Python', () => {
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
  });
});

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

describe('test-config', () => {
  it('flags a pytest.ini added with --deselect', () => {
    const ini = lines('[pytest]', 'addopts = --deselect tests/test_x.py::test_y');
    expect(edits(change('pytest.ini', null, ini))).toEqual([
      { path: 'pytest.ini', kind: 'test-config', what: 'pytest.ini adds --deselect' },
    ]);
  });

  it('flags conftest.py anywhere, as configuration', () => {
    expect(edits(change('conftest.py', 'a', 'b'))).toEqual([
      { path: 'conftest.py', kind: 'test-config', what: 'conftest.py changed' },
    ]);
    expect(edits(change('src/pkg/conftest.py', null, 'b')).map((e) => e.kind)).toEqual([
      'test-config',
    ]);
  });

  const pyproject = (version: string, addopts: string): string =>
    lines(
      '[project]',
      'name = "calc"',
      `version = "${version}"`,
      '',
      '[tool.pytest.ini_options]',
      'addopts = [',
      `  ${addopts}`,
      ']',
      '',
      '[tool.ruff]',
      'line-length = 100',
    );

  it('flags a [tool.pytest.ini_options] change, but not a [project] version change', () => {
    const before = pyproject('0.1.0', '"-q",');
    expect(
      whats(
        change('pyproject.toml', before, pyproject('0.1.0', '"-q", "--deselect=tests/t.py::x",')),
      ),
    ).toEqual(['[tool.pytest.ini_options] changed in pyproject.toml (adds --deselect)']);
    expect(whats(change('pyproject.toml', before, pyproject('0.2.0', '"-q",')))).toEqual([]);
    expect(
      whats(
        change('pyproject.toml', before, before.replace('line-length = 100', 'line-length = 88')),
      ),
    ).toEqual([]);
  });

  it('flags pytest settings written as dotted keys under [tool]', () => {
    const before = lines('[tool]', 'ruff.line-length = 100');
    const after = lines(
      '[tool]',
      'ruff.line-length = 100',
      'pytest.ini_options.addopts = "-k not slow"',
    );
    expect(whats(change('pyproject.toml', before, after))).toEqual([
      '[tool] pytest.ini_options.addopts added in pyproject.toml (adds -k)',
    ]);
  });

  it('flags the [pytest] section of tox.ini and [tool:pytest] of setup.cfg, not their others', () => {
    const tox = (flake: string, pytest: string): string =>
      lines('[flake8]', `max-line-length = ${flake}`, '[pytest]', `testpaths = ${pytest}`);
    expect(whats(change('tox.ini', tox('100', 'tests'), tox('100', 'tests/unit')))).toEqual([
      '[pytest] changed in tox.ini',
    ]);
    expect(whats(change('tox.ini', tox('100', 'tests'), tox('88', 'tests')))).toEqual([]);
    const cfg = (metadata: string, opts: string): string =>
      lines('[metadata]', `version = ${metadata}`, '[tool:pytest]', `addopts = ${opts}`);
    expect(whats(change('setup.cfg', cfg('1', '-q'), cfg('1', '-q -p no:randomly')))).toEqual([
      '[tool:pytest] changed in setup.cfg (adds -p no:randomly)',
    ]);
    expect(whats(change('setup.cfg', cfg('1', '-q'), cfg('2', '-q')))).toEqual([]);
  });

  const packageJson = (value: Record<string, unknown>): string => JSON.stringify(value, null, 2);

  it('flags a package.json scripts.test change, not a dependencies change', () => {
    const before = packageJson({
      scripts: { test: 'vitest run', build: 'tsc' },
      dependencies: { a: '1' },
    });
    expect(
      edits(
        change(
          'package.json',
          before,
          packageJson({
            scripts: { test: 'vitest run src/ok', build: 'tsc' },
            dependencies: { a: '1' },
          }),
        ),
      ),
    ).toEqual([
      { path: 'package.json', kind: 'test-config', what: 'scripts.test changed in package.json' },
    ]);
    expect(
      whats(
        change(
          'package.json',
          before,
          packageJson({
            scripts: { test: 'vitest run', build: 'tsc -b' },
            dependencies: { a: '2', jest: '29' },
          }),
        ),
      ),
    ).toEqual([]);
  });

  it('flags jest settings in package.json regardless of key order, and unparsable JSON', () => {
    const before = packageJson({ jest: { testPathIgnorePatterns: ['a'], bail: true } });
    const reordered = packageJson({ jest: { bail: true, testPathIgnorePatterns: ['a'] } });
    expect(whats(change('package.json', before, reordered))).toEqual([]);
    expect(
      whats(
        change(
          'package.json',
          before,
          packageJson({ jest: { testPathIgnorePatterns: ['a', 'src'] } }),
        ),
      ),
    ).toEqual(['jest changed in package.json']);
    expect(whats(change('web/package.json', before, '{ "jest": '))).toEqual([
      'web/package.json changed and cannot be read as JSON',
    ]);
  });

  it('flags a Cargo.toml [[test]] target added, not a dependency bump', () => {
    const cargo = (serde: string, extra = ''): string =>
      lines('[package]', 'name = "calc"', '', '[dependencies]', `serde = "${serde}"`, extra);
    expect(
      whats(change('Cargo.toml', cargo('1'), cargo('1', '[[test]]\nname = "it"\nharness = false'))),
    ).toEqual(['[[test]] added in Cargo.toml']);
    expect(whats(change('Cargo.toml', cargo('1'), cargo('1.0.200')))).toEqual([]);
    expect(
      whats(
        change(
          'Cargo.toml',
          cargo('1'),
          cargo('1').replace('name = "calc"', 'name = "calc"\nautotests = false'),
        ),
      ),
    ).toEqual(['[package] autotests added in Cargo.toml']);
    expect(whats(change('Cargo.toml', cargo('1'), cargo('1', '[lib]\ntest = false')))).toEqual([
      '[lib] test added in Cargo.toml',
    ]);
  });

  it('flags //go:build ignore added to a Go file, not an ordinary change to it', () => {
    const go = lines('package calc', '', 'func Add(a, b int) int { return a + b }');
    expect(edits(change('calc/add.go', go, `//go:build ignore\n\n${go}`))).toEqual([
      {
        path: 'calc/add.go',
        kind: 'test-config',
        what: "build constraint '//go:build ignore' added in calc/add.go",
      },
    ]);
    expect(whats(change('calc/add.go', go, go.replace('a + b', 'b + a')))).toEqual([]);
    const test = lines('package calc', 'func TestAdd(t *testing.T) {}');
    expect(whats(change('calc/add_test.go', test, `// +build integration\n\n${test}`))).toEqual([
      "build constraint '// +build integration' added in calc/add_test.go",
    ]);
  });

  it('flags CMake test commands changed, not other CMake changes', () => {
    const cmake = (flags: string, test: string): string =>
      lines(
        'project(calc)',
        `set(CMAKE_CXX_FLAGS "${flags}")`,
        'enable_testing()',
        `add_test(NAME calc`,
        `  COMMAND calc_tests ${test})`,
      );
    expect(
      whats(change('CMakeLists.txt', cmake('-O2', ''), cmake('-O2', '--gtest_filter=-Slow*'))),
    ).toEqual(['add_test changed in CMakeLists.txt']);
    expect(whats(change('CMakeLists.txt', cmake('-O2', ''), cmake('-O3', '')))).toEqual([]);
    expect(
      whats(
        change(
          'CMakeLists.txt',
          'add_subdirectory(src)\nadd_subdirectory(tests)\n',
          'add_subdirectory(src)\n',
        ),
      ),
    ).toEqual(['add_subdirectory removed in CMakeLists.txt']);
  });

  it.each([
    'jest.config.ts',
    'vitest.config.mts',
    'vitest.workspace.ts',
    '.mocharc.yml',
    'karma.conf.js',
    'phpunit.xml.dist',
    '.cargo/config.toml',
    '.config/nextest.toml',
    'build/CTestTestfile.cmake',
    'pkg/noxfile.py',
  ])('flags any change to %s', (path) => {
    expect(edits(change(path, 'a', 'b')).map((e) => e.kind)).toEqual(['test-config']);
  });

  it('flags vite.config test options, Maven surefire and Gradle test tasks, not their other parts', () => {
    const vite = (port: string, exclude: string): string =>
      `export default defineConfig({ server: { port: ${port} }, test: { exclude: [${exclude}] } });\n`;
    expect(whats(change('vite.config.ts', vite('1', ''), vite('1', "'src/slow/**'")))).toEqual([
      'test options changed in vite.config.ts',
    ]);
    expect(whats(change('vite.config.ts', vite('1', ''), vite('2', '')))).toEqual([]);
    const pom = (version: string, skip: string): string =>
      lines(
        `<project><version>${version}</version><build><plugins><plugin>`,
        '<artifactId>maven-surefire-plugin</artifactId>',
        `<configuration>${skip}</configuration>`,
        '</plugin></plugins></build></project>',
      );
    expect(
      whats(
        change(
          'pom.xml',
          pom('1', ''),
          pom('1', '<excludes><exclude>**/SlowTest.java</exclude></excludes>'),
        ),
      ),
    ).toEqual(['surefire/failsafe plugin configuration changed in pom.xml']);
    expect(whats(change('pom.xml', pom('1', ''), pom('2', '')))).toEqual([]);
    const gradle = (version: string, filter: string): string =>
      lines(`version = '${version}'`, 'test {', '    useJUnitPlatform()', `    ${filter}`, '}');
    expect(
      whats(
        change(
          'build.gradle',
          gradle('1', ''),
          gradle('1', "filter { excludeTestsMatching '*Slow*' }"),
        ),
      ),
    ).toEqual(['test task configuration changed in build.gradle']);
    expect(whats(change('build.gradle', gradle('1', ''), gradle('2', '')))).toEqual([]);
  });
});

describe('honest fixes in each language are not test edits', () => {
  it.each<[string, string, string]>([
    [
      'src/lib.rs',
      'pub fn add(a: i32, b: i32) -> i32 { a - b }\n',
      'pub fn add(a: i32, b: i32) -> i32 { a + b }\n',
    ],
    ['calc/core.py', 'def add(a, b):\n    return a - b\n', 'def add(a, b):\n    return a + b\n'],
    [
      'src/util.ts',
      'export const add = (a, b) => a - b;\n',
      'export const add = (a, b) => a + b;\n',
    ],
    [
      'src/App.tsx',
      "const App = () => <p>Don't {x}</p>;\n",
      "const App = () => <p>Don't {y}</p>;\n",
    ],
    [
      'calc/add.go',
      'package calc\nfunc Add(a, b int) int { return a - b }\n',
      'package calc\nfunc Add(a, b int) int { return a + b }\n',
    ],
    ['README.md', '# calc\n', '# calc, fixed\n'],
    ['pyproject.toml', '[project]\nversion = "1"\n', '[project]\nversion = "2"\n'],
  ])('%s', (path, before, after) => {
    expect(edits(change(path, before, after))).toEqual([]);
  });

  it('ignores a file that did not change, and a binary source file by content', () => {
    expect(edits(change('src/lib.rs', 'x', 'x'))).toEqual([]);
    expect(edits(change('src/data.rs', '\0#[test] fn a() {}', '\0#[test] fn b() {}'))).toEqual([]);
  });

  it('counts a configuration file that is not text', () => {
    expect(whats(change('pyproject.toml', 'a = 1', '\0\0'))).toEqual([
      'pyproject.toml changed (not text)',
    ]);
  });
});

describe('robustness', () => {
  it('stays fast on 8 MB of source, and on adversarial nesting', () => {
    const test = (n: number): string =>
      `#[test]\nfn t${n}() {\n    let s = "}"; assert_eq!(${n}, ${n});\n}\n`;
    const big = Array.from({ length: 140_000 }, (_, n) => test(n)).join('');
    expect(big.length).toBeGreaterThan(7_000_000);
    const started = Date.now();
    const found = edits(
      change('src/big.rs', big, big.replace('assert_eq!(7, 7)', 'assert_eq!(7, 8)')),
    );
    expect(found.map((e) => e.what)).toEqual(["test 't7' changed in src/big.rs"]);
    const nested = `${"describe('a', () => {\n".repeat(20_000)}${'});\n'.repeat(20_000)}`;
    const deepPython = Array.from(
      { length: 3000 },
      (_, n) => `${' '.repeat(n)}def test_${n}():`,
    ).join('\n');
    const templates = `${'`${'.repeat(50_000)}${'}`'.repeat(50_000)}`;
    for (const [path, text] of [
      ['src/n.ts', nested],
      ['src/p.py', deepPython],
      ['src/t.js', templates],
      ['src/u.rs', '#[test]'.repeat(200_000)],
      ['src/v.rs', "'".repeat(500_000)],
    ] as const) {
      expect(() => edits(change(path, text, `${text}x`))).not.toThrow();
    }
    // About a second outside the test runner; the bound only catches a quadratic regression.
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it('never throws on random text in any language', () => {
    let state = 11;
    const next = (): number => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 2 ** 32;
    };
    const alphabet = Array.from('{}()[]"\'`/*#!\\\n $:;=<>abtestdfi_.-').concat([
      '#[test]',
      '#[cfg(test)]',
      'mod tests {',
      "it('x', () => {",
      'describe(',
      'def test_a():\n',
      '[tool.pytest.ini_options]\n',
      '"""',
      '//go:build x\n',
      '${',
    ]);
    const pick = (): string => alphabet[Math.floor(next() * alphabet.length)] ?? '';
    const paths = [
      'a.rs',
      'a.py',
      'a.ts',
      'a.go',
      'pyproject.toml',
      'Cargo.toml',
      'package.json',
      'tox.ini',
      'CMakeLists.txt',
      'build.gradle',
      'pom.xml',
      'vite.config.js',
    ];
    for (let round = 0; round < 300; round += 1) {
      const before = Array.from({ length: Math.floor(next() * 200) }, pick).join('');
      const after = Array.from({ length: Math.floor(next() * 200) }, pick).join('');
      for (const path of paths) {
        expect(() => edits(change(path, before, after))).not.toThrow();
      }
    }
  });
});
