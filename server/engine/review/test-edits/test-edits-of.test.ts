import { describe, expect, it } from 'vitest';
import { change, edits, whats } from './test-support/changes';

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
