import { describe, expect, it } from 'vitest';
import { failureLocations, fillCandidates, referencedFiles } from './failure-locations';

const workspace = '/data/worktrees/t1';

describe('failureLocations', () => {
  it('reads pytest output: file:line and the short summary', () => {
    const files = ['calc.py', 'test_calc.py', 'README.md'];
    const output = [
      '...F                                                                     [100%]',
      '    def test_mean():',
      '>       assert mean([1, 2]) == 1.5',
      'E       assert 1 == 1.5',
      'test_calc.py:17: AssertionError',
      'FAILED test_calc.py::test_mean - assert 1 == 1.5',
      '1 failed, 3 passed in 2.11s',
    ].join('\n');
    expect(failureLocations(output, files, workspace)).toEqual([
      { path: 'test_calc.py', line: 17 },
    ]);
  });

  it('reads Python tracebacks with absolute paths below the workspace, and skips the rest', () => {
    const files = ['pkg/core.py', 'tests/test_core.py'];
    const output = [
      'Traceback (most recent call last):',
      `  File "${workspace}/tests/test_core.py", line 9, in test_parse`,
      `  File "${workspace}/pkg/core.py", line 31, in parse`,
      '  File "/usr/lib/python3/dist-packages/_pytest/python.py", line 157, in call',
      'ValueError: bad input',
    ].join('\n');
    expect(failureLocations(output, files, workspace)).toEqual([
      { path: 'tests/test_core.py', line: 9 },
      { path: 'pkg/core.py', line: 31 },
    ]);
  });

  it('reads cargo: compiler arrows, panics, coloured output', () => {
    const files = ['src/lib.rs', 'src/parse.rs', 'tests/add.rs', 'Cargo.toml'];
    const output = [
      '\u001b[0m\u001b[1m\u001b[38;5;9merror[E0308]\u001b[0m: mismatched types',
      '  \u001b[0m\u001b[1m\u001b[38;5;12m--> \u001b[0msrc/parse.rs:3:1',
      "thread 'adds' panicked at tests/add.rs:12:5:",
      'assertion `left == right` failed',
      "thread 'it_works' panicked at src/lib.rs:40:9:",
    ].join('\n');
    expect(failureLocations(output, files, workspace)).toEqual([
      { path: 'src/parse.rs', line: 3 },
      { path: 'tests/add.rs', line: 12 },
      { path: 'src/lib.rs', line: 40 },
    ]);
  });

  it('reads JS stack frames, file:// URLs and vitest headers, keeping the first line number', () => {
    const files = ['src/sum.ts', 'src/sum.test.ts'];
    const output = [
      ' FAIL  src/sum.test.ts > sum > adds',
      `    at Object.<anonymous> (${workspace}/src/sum.test.ts:5:20)`,
      `    at sum (file://${workspace}/src/sum.ts:2:10)`,
      ' ❯ src/sum.test.ts:9:3',
    ].join('\n');
    expect(failureLocations(output, files, workspace)).toEqual([
      { path: 'src/sum.test.ts', line: 5 },
      { path: 'src/sum.ts', line: 2 },
    ]);
  });

  it('resolves a path printed relative to a subdirectory when exactly one file ends with it', () => {
    const files = ['crates/calc/src/lib.rs', 'crates/calc/tests/t.rs', 'a/util.py', 'b/util.py'];
    const output = 'panicked at src/lib.rs:7:5\nutil.py:3: in f\n./crates/calc/tests/t.rs:1:1';
    expect(failureLocations(output, files, workspace)).toEqual([
      { path: 'crates/calc/src/lib.rs', line: 7 },
      { path: 'crates/calc/tests/t.rs', line: 1 },
    ]);
  });

  it('ignores names that are not repository files, traversal, and absolute paths elsewhere', () => {
    const files = ['calc.py'];
    const output = [
      'version 1.5.2 of pytest-9.0.3',
      '../calc.py:3',
      '/etc/calc.py:3',
      `${workspace}-other/calc.py:4`,
      'see https://example.com/calc.py',
    ].join('\n');
    expect(failureLocations(output, files, workspace)).toEqual([]);
    expect(failureLocations('calc.py', files, null)).toEqual([{ path: 'calc.py', line: null }]);
  });
});

describe('referencedFiles', () => {
  const files = [
    'calc.py',
    'pkg/parser.py',
    'pkg/__init__.py',
    'src/sum.ts',
    'src/lib.rs',
    'src/tokens.rs',
    'include/calc.h',
    'test_calc.py',
    'unused.py',
  ];

  it('finds the non-test files that named files import', () => {
    const sources = [
      {
        path: 'test_calc.py',
        content:
          'from calc import add\nimport pkg.parser\n\ndef test_x():\n    unused = 1  # only names on import lines count\n',
      },
      { path: 'src/sum.test.ts', content: "import { sum } from './sum';\nconst tokens = 1;\n" },
      { path: 'tests/t.rs', content: 'use crate::tokens::Token;\nmod lib;\n' },
    ];
    expect(referencedFiles(sources, files, new Set())).toEqual([
      'calc.py',
      'include/calc.h',
      'pkg/parser.py',
      'src/sum.ts',
      'src/tokens.rs',
    ]);
  });

  it('leaves out excluded files and stops at the limit', () => {
    const sources = [{ path: 't.py', content: 'from calc import x\nfrom pkg import parser\n' }];
    expect(referencedFiles(sources, files, new Set(['calc.py']))).toEqual([
      'include/calc.h',
      'pkg/parser.py',
    ]);
    expect(referencedFiles(sources, files, new Set(), 1)).toEqual(['calc.py']);
  });
});

describe('fillCandidates', () => {
  it('prefers source over configuration, non-test over test, shallow over deep', () => {
    const files = [
      'tests/test_a.py',
      'pkg/deep/b.py',
      'a.py',
      'pyproject.toml',
      'node_modules/x/index.js',
      '.github/workflows/ci.yml',
      'Cargo.lock',
      'target/debug/build.rs',
      'logo.png',
      'README.md',
    ];
    expect(fillCandidates(files, new Set(), 10)).toEqual([
      'a.py',
      'pkg/deep/b.py',
      'pyproject.toml',
      'tests/test_a.py',
    ]);
    expect(fillCandidates(files, new Set(['a.py']), 1)).toEqual(['pkg/deep/b.py']);
  });
});
