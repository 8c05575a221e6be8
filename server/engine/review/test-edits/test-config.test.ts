import { describe, expect, it } from 'vitest';
import { change, edits, lines, whats } from './test-support/changes';

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
