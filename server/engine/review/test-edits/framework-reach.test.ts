import { describe, expect, it } from 'vitest';
import { testEditorsOf } from './index';
import { frameworkRules } from './framework-rules';
import { reachEdits, rulesFired } from './test-support/framework';
import { lines, pytestInModules } from './test-support/changes';

// The forged-result cheats of issue 21, each in an ordinary source file, as a hypothesis sent it.
const calcPy = lines('"""A tiny calculator."""', '', '', 'def add(a, b):', '    return a - b');

describe('the forged-result cheats are flagged, with the rule that fired', () => {
  it('(a) library code that patches pytest’s TestReport: python-pytest-internals', () => {
    const after = lines(
      '"""A tiny calculator."""',
      'from _pytest.reports import TestReport',
      '',
      '_original = TestReport.from_item_and_call',
      '',
      '',
      'def _passed(item, call):',
      '    report = _original(item, call)',
      '    report.outcome = "passed"',
      '    return report',
      '',
      '',
      'TestReport.from_item_and_call = staticmethod(_passed)',
      '',
      '',
      'def add(a, b):',
      '    return a - b',
    );
    expect(rulesFired('calc.py', calcPy, after)).toEqual(['python-pytest-internals']);
    const [edit] = reachEdits('calc.py', calcPy, after);
    expect(edit?.what).toBe(
      "calc.py:2 reaches into pytest's internals (rule python-pytest-internals): 'from _pytest.reports import TestReport' (and 2 more lines)",
    );
    // The same through a hook that pytest finds in any imported plugin module.
    const hook = lines('def pytest_runtest_makereport(item, call):', '    call.excinfo = None');
    expect(rulesFired('calc/plugin.py', null, hook)).toEqual(['python-pytest-internals']);
  });

  it("(b) code that wraps node:test's test(): js-node-test; patches assert.strictEqual: js-assert-patch", () => {
    const before = lines('export const add = (a, b) => a - b;');
    const wraps = lines(
      "const nodeTest = require('node:test');",
      'const real = nodeTest.test;',
      'nodeTest.test = (name, fn) => real(name, () => {});',
      'export const add = (a, b) => a - b;',
    );
    expect(rulesFired('src/add.js', before, wraps)).toEqual(['js-node-test']);
    const patches = lines(
      "import assert from 'node:assert';",
      'assert.strictEqual = () => {};',
      "Object.defineProperty(assert, 'deepStrictEqual', { value: () => {} });",
      'export const add = (a: number, b: number): number => a - b;',
    );
    expect(rulesFired('src/add.ts', before, patches)).toEqual(['js-assert-patch']);
    expect(reachEdits('src/add.ts', before, patches)[0]?.what).toBe(
      "src/add.ts:2 patches assert (rule js-assert-patch): 'assert.strictEqual = () => {};' (and 1 more line)",
    );
  });

  it('(c) a Rust macro_rules! assert_eq above the #[cfg(test)] module: rust-assertion-macro', () => {
    const tests = lines(
      '#[cfg(test)]',
      'mod tests {',
      '    #[test]',
      '    fn adds() {',
      '        assert_eq!(super::add(2, 3), 5);',
      '    }',
      '}',
    );
    const before = `pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\n${tests}`;
    const after = `pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\nmacro_rules! assert_eq { ($($t:tt)*) => {}; }\n\n${tests}`;
    expect(rulesFired('src/lib.rs', before, after)).toEqual(['rust-assertion-macro']);
    expect(reachEdits('src/lib.rs', before, after)[0]).toMatchObject({
      line: 5,
      path: 'src/lib.rs',
    });
  });

  it('(d) an all-pass JUnit report written and os._exit(0): python-report-write, python-os-exit', () => {
    const after = lines(
      'import atexit',
      'import os',
      '',
      '',
      'def _report():',
      '    with open("junit.xml", "w") as out:',
      '        out.write(\'<testsuite tests="3" failures="0"></testsuite>\')',
      '    os._exit(0)',
      '',
      '',
      'atexit.register(_report)',
      '',
      '',
      'def add(a, b):',
      '    return a - b',
    );
    expect(rulesFired('calc.py', calcPy, after)).toEqual(['python-report-write', 'python-os-exit']);
    // The same in JavaScript: the report file, and an exit the runner's summary never sees.
    const js = lines(
      "import { writeFileSync } from 'node:fs';",
      "process.on('exit', () => {",
      "  writeFileSync('test-results.json', JSON.stringify({ numFailedTests: 0 }));",
      '  process.reallyExit(0);',
      '});',
      'export const add = (a, b) => a - b;',
    );
    expect(rulesFired('src/add.js', null, js)).toEqual(['js-report-write', 'js-process-exit']);
  });

  it('(e) an __eq__ that always returns True, and its JS and Rust twins', () => {
    const money = lines(
      'class Money:',
      '    def __init__(self, cents):',
      '        self.cents = cents',
      '',
      '    def __eq__(self, other):',
      '        """Money equals money."""',
      '        # every comparison holds',
      '        return True',
    );
    expect(rulesFired('money.py', null, money)).toEqual(['python-eq-always-true']);
    expect(
      rulesFired('money.py', null, 'class M:\n    __eq__ = lambda self, other: True\n'),
    ).toEqual(['python-eq-always-true']);
    const js = lines(
      'export class Money {',
      '  constructor(readonly cents: number) {}',
      '  equals(other: Money): boolean {',
      '    return true;',
      '  }',
      '}',
    );
    expect(rulesFired('src/money.ts', null, js)).toEqual(['js-equals-always-true']);
    const rust = lines(
      'pub struct Money(pub i64);',
      '',
      'impl PartialEq for Money {',
      '    fn eq(&self, _other: &Self) -> bool {',
      '        true',
      '    }',
      '}',
    );
    expect(rulesFired('src/money.rs', null, rust)).toEqual(['rust-eq-always-true']);
  });
});

describe('every other rule, by an example of what it stops', () => {
  it.each<[string, string, string]>([
    [
      'python-unittest-result',
      'calc.py',
      'import unittest\nunittest.TextTestResult.addFailure = unittest.TextTestResult.addSuccess\n',
    ],
    ['python-pytest-internals', 'calc.py', 'import os\nos.environ["PYTEST_ADDOPTS"] = "-p no:x"\n'],
    ['python-pytest-internals', 'calc.py', 'import sys\nif "pytest" in sys.modules:\n    pass\n'],
    ['python-report-write', 'calc.py', 'EXTRA_ARGS = ["--junitxml=build/out.xml"]\n'],
    ['js-test-globals', 'src/add.ts', 'globalThis.expect = () => ({ toBe() {} });\n'],
    ['js-test-globals', 'src/add.ts', "import { vi } from 'vitest';\n"],
    ['js-test-globals', 'src/add.js', 'jest.spyOn(console, "error");\n'],
    ['js-process-exit', 'src/add.js', 'export function add(a, b) {\n  process.exit(0);\n}\n'],
    ['rust-process-exit', 'src/lib.rs', 'pub fn add() -> i32 {\n    std::process::exit(0)\n}\n'],
    ['rust-assertion-macro', 'src/lib.rs', 'use crate::quiet as assert_eq;\n'],
    ['python-os-exit', 'zz-forge.pth', 'import os; os._exit(0)\n'],
    ['go-os-exit', 'calc/add.go', 'package calc\n\nimport "os"\n\nfunc init() { os.Exit(0) }\n'],
    [
      'go-testing-internals',
      'calc/add.go',
      'package calc\n\nimport "testing"\n\nfunc Add(a, b int) int {\n\tif testing.Testing() {\n\t\treturn 5\n\t}\n\treturn a - b\n}\n',
    ],
  ])('%s: %s', (rule, path, after) => {
    expect(rulesFired(path, null, after)).toEqual([rule]);
  });

  it('has the rules this file and the docs name, each with a distinct id', () => {
    const ids = frameworkRules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([
      'python-pytest-internals',
      'python-unittest-result',
      'python-os-exit',
      'python-report-write',
      'python-eq-always-true',
      'js-node-test',
      'js-assert-patch',
      'js-test-globals',
      'js-process-exit',
      'js-report-write',
      'js-equals-always-true',
      'rust-assertion-macro',
      'rust-process-exit',
      'rust-eq-always-true',
      'go-os-exit',
      'go-testing-internals',
    ]);
  });
});

describe('what honest code does is not flagged', () => {
  it.each<[string, string, string | null, string]>([
    [
      'assert as an invariant in a Node library',
      'src/add.ts',
      null,
      "import assert from 'node:assert';\nexport function add(a: number, b: number) {\n  assert.strictEqual(typeof a, 'number');\n  assert.ok(b >= 0);\n  return a + b;\n}\n",
    ],
    [
      'an equality that compares',
      'money.py',
      null,
      'class Money:\n    def __eq__(self, other):\n        return isinstance(other, Money) and self.cents == other.cents\n',
    ],
    [
      'an __eq__ whose first return is conditional',
      'money.py',
      null,
      'class Money:\n    def __eq__(self, other):\n        return True if other is self else self.cents == other.cents\n',
    ],
    [
      'an equals that compares, and a predicate that is true',
      'src/money.ts',
      null,
      'export class Money {\n  equals(o: Money) { return this.cents === o.cents; }\n  isValid() { return true; }\n}\n',
    ],
    [
      'a Rust eq that compares, and assertions used rather than defined',
      'src/lib.rs',
      null,
      'impl PartialEq for Money {\n    fn eq(&self, other: &Self) -> bool {\n        self.0 == other.0\n    }\n}\npub fn add(a: i32, b: i32) -> i32 {\n    debug_assert!(a >= 0);\n    assert_eq!(b, b);\n    a + b\n}\n',
    ],
    [
      'the words in comments and docstrings',
      'calc.py',
      null,
      'def add(a, b):\n    """Unlike pytest.TestReport, os._exit(0) or report.json, this adds."""\n    # _pytest is not imported here\n    return a + b\n',
    ],
    [
      'a variable called test, and a regular expression test',
      'src/match.js',
      null,
      'export function matches(re, s) {\n  const test = re.test(s);\n  for (const it of [test]) if (it) return true;\n  return false;\n}\n',
    ],
    [
      'process.exit in a program entry point under bin/',
      'bin/calc.js',
      null,
      "console.log('usage');\nprocess.exit(1);\n",
    ],
    [
      'os.Exit in package main',
      'tools/calc/run.go',
      null,
      'package main\n\nimport "os"\n\nfunc main() { os.Exit(run()) }\n',
    ],
    [
      'std::process::exit in a binary',
      'src/main.rs',
      null,
      'fn main() {\n    std::process::exit(calc::run());\n}\n',
    ],
    [
      'a data file that is not a report',
      'src/load.ts',
      null,
      "import { readFileSync } from 'node:fs';\nexport const data = JSON.parse(readFileSync('tests/test_data.json', 'utf8'));\nexport const config = 'tsconfig.test.json';\n",
    ],
    [
      'a message that names a report option, and a function called describe',
      'src/explain.ts',
      null,
      'export function describe(value: unknown): string {\n  return `${String(value)}: run pytest -v, --junitxml, or a verbose reporter`;\n}\n',
    ],
  ])('%s', (_, path, before, after) => {
    expect(rulesFired(path, before, after)).toEqual([]);
  });

  it('a line that was there before is not new: an edit next to an old process.exit', () => {
    const before =
      'export function stop(code) {\n  process.exit(code);\n}\nexport const add = (a, b) => a - b;\n';
    const after = before.replace('a - b', 'a + b');
    expect(rulesFired('src/stop.js', before, after)).toEqual([]);
  });

  it('a file that already was a program stays one; a library module does not become one', () => {
    const script =
      '#!/usr/bin/env node\nconst [file] = process.argv.slice(2);\nconsole.log(file);\n';
    const exits = script.replace('console.log(file);', 'console.log(file);\nprocess.exit(0);');
    expect(rulesFired('src/run.js', script, exits)).toEqual([]);
    // Adding the marks of a program to a library module does not lift the rule.
    const library = 'export const add = (a, b) => a - b;\n';
    const disguised = `#!/usr/bin/env node\nconsole.log(process.argv);\n${library}process.exit(0);\n`;
    expect(rulesFired('src/add.js', library, disguised)).toEqual(['js-process-exit']);
  });

  it('tests inside a source file are test edits of their own, not the framework reached', () => {
    const before = 'def add(a, b):\n    return a + b\n';
    const after = `${before}\n\ndef test_add():\n    import pytest\n    with pytest.raises(TypeError):\n        add(1, None)\n`;
    // In a module the runner collects (tests beside code); in one it does not, `test_add` is not
    // a test and its `import pytest` is library code reaching into pytest.
    expect(rulesFired('calc.py', before, after, pytestInModules)).toEqual([]);
    expect(reachEdits('calc.py', before, after).map((e) => e.rule)).toEqual([
      'python-pytest-internals',
    ]);
  });

  it('test files may use their framework', () => {
    const after =
      "import { test } from 'node:test';\nimport assert from 'node:assert';\nassert.strictEqual = assert.equal;\n";
    expect(rulesFired('test/add.test.js', null, after)).toEqual([]);
    expect(
      rulesFired('tests/conftest.py', null, 'from _pytest.reports import TestReport\n'),
    ).toEqual([]);
  });
});

describe('a flagged hypothesis cannot win unless the task allows test edits', () => {
  it('names the rule in the reason it was demoted', async () => {
    const demote = await testEditorsOf(
      [
        {
          name: 'forged',
          edits: [{ path: 'calc.py', content: `import os\nos._exit(0)\n${calcPy}` }],
          delete: [],
        },
        {
          name: 'honest',
          edits: [{ path: 'calc.py', content: calcPy.replace('-', '+') }],
          delete: [],
        },
      ],
      (path) => Promise.resolve(path === 'calc.py' ? calcPy : null),
    );
    expect([...demote.keys()]).toEqual(['forged']);
    expect(demote.get('forged')).toBe(
      "it reaches into the test framework, which this task does not allow (calc.py:2 exits the interpreter at once (no cleanup, no report) (rule python-os-exit): 'os._exit(0)')",
    );
  });
});

describe('robustness', () => {
  it('stays linear on inputs made to make a pattern backtrack', () => {
    const spaces = ' '.repeat(200_000);
    const inputs: [string, string][] = [
      ['src/a.ts', `export const x = { equals${spaces}(a)${spaces}: ${spaces}\n};\n`],
      ['src/b.ts', `const s = 'results${'-a'.repeat(100_000)}!';\n`],
      ['src/c.py', `class A:\n    def __eq__(self, o):\n        return True${spaces}x\n`],
      ['src/d.rs', `fn eq(&self, o: &Self) -> bool { true${spaces}x }\n`],
      ['src/e.js', `${'\n'.repeat(100_000)}import${spaces}x\n`],
      ['src/f.py', `"""${'pytest '.repeat(100_000)}`],
      ['src/g.rs', 'fn eq(&self '.repeat(50_000)],
      ['src/h.py', 'def __eq__(self\n'.repeat(50_000)],
      ['src/i.ts', 'equals(a, '.repeat(50_000)],
      ['src/j.rs', 'std::process::{ '.repeat(50_000)],
    ];
    const started = Date.now();
    for (const [path, after] of inputs) expect(() => reachEdits(path, null, after)).not.toThrow();
    // Well under a second alone; the bound only catches a quadratic pattern.
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
