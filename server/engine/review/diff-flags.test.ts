import { describe, expect, it } from 'vitest';
import { diffFlags, isTestPath } from './diff-flags';
import { parseDiff } from './git-diff';

const text = (...lines: string[]): string => `${lines.join('\n')}\n`;

/** A text file's section of a git diff: `diff --git`, `index`, `---`/`+++` and one hunk. */
function modify(path: string, hunk: string, body: string[]): string {
  return text(
    `diff --git a/${path} b/${path}`,
    'index 1111111111111111111111111111111111111111..2222222222222222222222222222222222222222 100644',
    `--- a/${path}`,
    `+++ b/${path}`,
    hunk,
    ...body,
  );
}

// Real `git diff --cached --binary --full-index` output: a new file with Trojan Source bidi
// controls, a binary change, an executable bit, a `#[test]` removed from a function that stays
// and a pytest test case removed from a test file that stays.
const realDiff = text(
  'diff --git a/evil.js b/evil.js',
  'new file mode 100644',
  'index 0000000000000000000000000000000000000000..bd2205af5465adc0b25a6634b9207ebcdd5c3f76',
  '--- /dev/null',
  '+++ b/evil.js',
  '@@ -0,0 +1,2 @@',
  '+const ok = true;',
  '+if (access !== "user\u202e \u2066// admin\u2069 \u2066") {}',
  'diff --git a/logo.bin b/logo.bin',
  'index 8352675d67aed6625ece79af41c27fdb4ee2e867..c86626638e0bc8cf47ca49bb1525b40e9737ee64 100644',
  'GIT binary patch',
  'literal 256',
  'zcmV+b0ssC00RjUA1qKHQ2?`4g4Gs?w5fT#=6&4p585$cL9UdPbAtECrB_<~*DJm;0',
  'G{r>;0_J4r@',
  '',
  'literal 3',
  'KcmZQzWC8#H2LJ>B',
  '',
  'diff --git a/run.sh b/run.sh',
  'old mode 100644',
  'new mode 100755',
  'diff --git a/src/lib.rs b/src/lib.rs',
  'index 747c65f1bc44603c7f354a557815d2e6832b339b..5eff8cb5061370e952a0fb9a728229b44dcb0303 100644',
  '--- a/src/lib.rs',
  '+++ b/src/lib.rs',
  '@@ -2,7 +2,6 @@ pub fn add(a: i32, b: i32) -> i32 {',
  '     a + b',
  ' }',
  ' ',
  '-#[test]',
  ' fn adds() {',
  '     assert_eq!(add(1, 2), 3);',
  ' }',
  'diff --git a/tests/test_calc.py b/tests/test_calc.py',
  'index 605570989bbb31f4cf7260c7aba1ced9305a3232..ae7b3ebe659c62e8da26c28517e3aab02138f350 100644',
  '--- a/tests/test_calc.py',
  '+++ b/tests/test_calc.py',
  '@@ -4,7 +4,3 @@ def helper():',
  ' ',
  ' def test_one():',
  '     assert helper() == 1',
  '-',
  '-',
  '-def test_two():',
  '-    assert True',
);

describe('diffFlags on a real git diff', () => {
  const flags = diffFlags(realDiff);

  it('counts files, lines and bytes', () => {
    expect(flags).toMatchObject({ files: 5, additions: 2, deletions: 5, large: false });
    // The bidi controls are three bytes each in UTF-8.
    expect(flags.bytes).toBe(Buffer.byteLength(realDiff, 'utf8'));
    expect(flags.bytes).toBeGreaterThan(realDiff.length);
  });

  it('flags the Trojan Source line with its line number and code points', () => {
    expect(flags.hiddenCharacters).toEqual([
      { path: 'evil.js', line: 2, codePoints: ['U+202E', 'U+2066', 'U+2069'] },
    ]);
  });

  it('flags the binary file and the executable bit', () => {
    expect(flags.binaryFiles).toEqual(['logo.bin']);
    expect(flags.modeChanges).toEqual([{ path: 'run.sh', from: '100644', to: '100755' }]);
    expect(flags.symlinks).toEqual([]);
  });

  it('finds tests removed from files that remain, by path and by content', () => {
    expect(flags.testFiles).toEqual(['src/lib.rs', 'tests/test_calc.py']);
    expect(flags.deletedTests).toEqual([
      { path: 'src/lib.rs', what: '#[test]' },
      { path: 'tests/test_calc.py', what: 'def test_two():' },
    ]);
  });

  it('accepts the same diff as bytes', () => {
    expect(diffFlags(Buffer.from(realDiff, 'utf8'))).toEqual(flags);
  });
});

describe('test files by path', () => {
  it.each([
    'tests/test_calc.py',
    'pkg/server/handler_test.go',
    'test_calc.py',
    'calc_test.py',
    'src/app.test.ts',
    'src/app.test.tsx',
    'web/button.test.jsx',
    'lib/util.test.mjs',
    'lib/util.test.cjs',
    'src/app.spec.ts',
    'src/app.spec.rb',
    'src/test/java/com/example/CalcTest.java',
    'crate/tests/integration.rs',
    'web/__tests__/button.js',
    'spec/models/user_spec.rb',
    'test/helper.js',
    'conftest.py',
    'MyApp.Tests/CalcTests.cs',
    'src/__snapshots__/button.test.tsx.snap',
    'pkg/testdata/golden.txt',
  ])('%s is a test file', (path) => {
    expect(isTestPath(path)).toBe(true);
  });

  it.each([
    'src/contest.py',
    'src/latest.go',
    'src/protest/index.js',
    'src/attestation.rs',
    'docs/specification.md',
    'src/testing_helpers.ts',
    'src/main/java/com/example/Calc.java',
    'README.md',
  ])('%s is not a test file', (path) => {
    expect(isTestPath(path)).toBe(false);
  });

  it('counts a source file whose changed lines add or remove tests', () => {
    const rust = modify('src/lib.rs', '@@ -1,1 +1,4 @@', [
      ' fn add() {}',
      '+#[test]',
      '+fn adds() {',
      '+}',
    ]);
    const go = modify('pkg/calc.go', '@@ -1,1 +1,2 @@', [
      ' package calc',
      '+func TestAdd(t *testing.T) {}',
    ]);
    const java = modify('src/Calc.java', '@@ -1,1 +1,2 @@', [
      ' class Calc {',
      '+  @Test void adds() {}',
    ]);
    const plain = modify('src/calc.py', '@@ -1,1 +1,2 @@', [' x = 1', '+y = 2']);
    expect(diffFlags(rust + go + java + plain).testFiles).toEqual([
      'src/lib.rs',
      'pkg/calc.go',
      'src/Calc.java',
    ]);
  });

  it('does not mistake look-alikes for tests', () => {
    const diff =
      modify('src/util.py', '@@ -1,1 +1,2 @@', [' x = 1', '+def testable_value(x):']) +
      modify('src/Query.cs', '@@ -1,1 +1,2 @@', [' var a = 1;', '+var rest = items.Skip(1);']) +
      modify('src/calc.go', '@@ -1,1 +1,2 @@', [' package calc', '+func Testify() {}']);
    const flags = diffFlags(diff);
    expect(flags.testFiles).toEqual([]);
    expect(flags.disabledTests).toEqual([]);
  });

  it('does not count a test marker that only appears in context lines', () => {
    const diff = modify('src/lib.rs', '@@ -1,2 +1,3 @@', [' #[test]', ' fn adds() {}', '+// note']);
    expect(diffFlags(diff).testFiles).toEqual([]);
  });
});

describe('deleted tests', () => {
  it('reports a test file deleted outright as a file', () => {
    const diff = text(
      'diff --git a/tests/test_old.py b/tests/test_old.py',
      'deleted file mode 100644',
      'index 605570989bbb31f4cf7260c7aba1ced9305a3232..0000000000000000000000000000000000000000',
      '--- a/tests/test_old.py',
      '+++ /dev/null',
      '@@ -1,2 +0,0 @@',
      '-def test_old():',
      '-    assert True',
    );
    const flags = diffFlags(diff);
    expect(flags.deletedTests).toEqual([{ path: 'tests/test_old.py', what: 'file' }]);
    expect(flags.testFiles).toEqual(['tests/test_old.py']);
  });

  it('reports a deleted file that held tests even where its path says nothing', () => {
    const diff = text(
      'diff --git a/src/checks.js b/src/checks.js',
      'deleted file mode 100644',
      'index 605570989bbb31f4cf7260c7aba1ced9305a3232..0000000000000000000000000000000000000000',
      '--- a/src/checks.js',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      "-it('works', () => {});",
    );
    expect(diffFlags(diff).deletedTests).toEqual([{ path: 'src/checks.js', what: 'file' }]);
  });

  it('reports removed test cases in every ecosystem with the declaration trimmed', () => {
    const diff =
      modify('tests/test_a.py', '@@ -1,3 +1,1 @@', [
        ' import pytest',
        '-    def test_x(self):',
        '-        assert 1',
      ]) +
      modify('src/a.test.ts', '@@ -1,2 +1,1 @@', [
        " describe('a', () => {",
        "-  it('adds', () => {});",
      ]) +
      modify('calc_test.go', '@@ -1,2 +1,1 @@', [
        ' package calc',
        '-func TestAdd(t *testing.T) {}',
      ]) +
      modify('lib/calc.rb', '@@ -1,3 +1,1 @@', [
        ' class CalcTest',
        "-  it 'adds' do",
        '-  def test_subtracts',
      ]) +
      modify('src/test/java/CalcTest.java', '@@ -1,3 +1,1 @@', [
        ' class CalcTest {',
        '-  @Test',
        '-  void adds() {}',
      ]);
    expect(diffFlags(diff).deletedTests).toEqual([
      { path: 'tests/test_a.py', what: 'def test_x(self):' },
      { path: 'src/a.test.ts', what: "it('adds', () => {});" },
      { path: 'calc_test.go', what: 'func TestAdd(t *testing.T) {}' },
      { path: 'lib/calc.rb', what: "it 'adds' do" },
      { path: 'lib/calc.rb', what: 'def test_subtracts' },
      { path: 'src/test/java/CalcTest.java', what: '@Test' },
    ]);
  });

  it('does not report a test whose signature changed or that moved within the file', () => {
    const diff =
      modify('tests/test_a.py', '@@ -1,2 +1,2 @@', [
        '-def test_x(a):',
        '+def test_x(a, b):',
        '     assert a',
      ]) +
      modify('src/a.test.ts', '@@ -1,3 +1,3 @@', [
        "-it('first', () => {});",
        " it('second', () => {});",
        "+it('first', () => {});",
      ]) +
      modify('src/lib.rs', '@@ -1,3 +1,3 @@', ['-#[test]', '+#[test]', ' fn adds() {}']);
    expect(diffFlags(diff).deletedTests).toEqual([]);
  });

  it('tells Rust tests apart by the function after the attribute', () => {
    const diff = modify('src/lib.rs', '@@ -1,2 +1,2 @@', [
      ' #[test]',
      '-fn adds() {}',
      '+fn subtracts() {}',
    ]);
    const replaced = modify('src/lib.rs', '@@ -1,2 +1,2 @@', [
      '-#[test]',
      '-fn adds() {}',
      '+#[test]',
      '+fn subtracts() {}',
    ]);
    expect(diffFlags(diff).deletedTests).toEqual([]);
    expect(diffFlags(replaced).deletedTests).toEqual([{ path: 'src/lib.rs', what: '#[test]' }]);
  });
});

describe('disabled tests', () => {
  it('reports skip, ignore and focus markers on added lines with their new line numbers', () => {
    const diff =
      modify('tests/test_a.py', '@@ -10,2 +10,3 @@', [
        ' import pytest',
        '+@pytest.mark.skip(reason="flaky")',
        ' def test_x():',
      ]) +
      modify('src/a.test.ts', '@@ -1,1 +1,1 @@', [
        "-it('a', () => {});",
        "+it.only('a', () => {});",
      ]) +
      modify('src/lib.rs', '@@ -3,1 +3,2 @@', ['+#[ignore]', ' fn adds() {}']) +
      modify('x_test.go', '@@ -1,1 +1,2 @@', [' func TestX(t *testing.T) {', '+\tt.Skip("later")']);
    expect(diffFlags(diff).disabledTests).toEqual([
      { path: 'tests/test_a.py', line: 11, what: '@pytest.mark.skip(reason="flaky")' },
      { path: 'src/a.test.ts', line: 1, what: "it.only('a', () => {});" },
      { path: 'src/lib.rs', line: 3, what: '#[ignore]' },
      { path: 'x_test.go', line: 2, what: 't.Skip("later")' },
    ]);
  });

  it('does not report a removed skip marker', () => {
    const diff = modify('src/lib.rs', '@@ -1,2 +1,1 @@', ['-#[ignore]', ' fn adds() {}']);
    expect(diffFlags(diff).disabledTests).toEqual([]);
  });
});

describe('modes, binaries and symlinks', () => {
  it('reports executable new and deleted files, but not ordinary ones', () => {
    const diff = text(
      'diff --git a/run.sh b/run.sh',
      'new file mode 100755',
      'index 0000000000000000000000000000000000000000..1111111111111111111111111111111111111111',
      '--- /dev/null',
      '+++ b/run.sh',
      '@@ -0,0 +1 @@',
      '+#!/bin/sh',
      'diff --git a/old.sh b/old.sh',
      'deleted file mode 100755',
      'index 1111111111111111111111111111111111111111..0000000000000000000000000000000000000000',
      '--- a/old.sh',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-#!/bin/sh',
      'diff --git a/plain.txt b/plain.txt',
      'new file mode 100644',
      'index 0000000000000000000000000000000000000000..1111111111111111111111111111111111111111',
      '--- /dev/null',
      '+++ b/plain.txt',
      '@@ -0,0 +1 @@',
      '+hi',
      'diff --git a/tool b/tool',
      'old mode 100755',
      'new mode 100644',
    );
    expect(diffFlags(diff).modeChanges).toEqual([
      { path: 'run.sh', from: '000000', to: '100755' },
      { path: 'old.sh', from: '100755', to: '000000' },
      { path: 'tool', from: '100755', to: '100644' },
    ]);
  });

  it('reports "Binary files differ" as well as binary patches', () => {
    const diff = text(
      'diff --git a/a.png b/a.png',
      'new file mode 100644',
      'index 0000000..1111111',
      'Binary files /dev/null and b/a.png differ',
    );
    const flags = diffFlags(diff);
    expect(flags.binaryFiles).toEqual(['a.png']);
    expect(flags.files).toBe(1);
  });

  it('reports symlinks created and symlinks changed', () => {
    const diff = text(
      'diff --git a/link b/link',
      'new file mode 120000',
      'index 0000000000000000000000000000000000000000..1de565933b05f74c75ff9a6520af5f9f8a5a2f1d',
      '--- /dev/null',
      '+++ b/link',
      '@@ -0,0 +1 @@',
      '+/etc/passwd',
      '\\ No newline at end of file',
      'diff --git a/other b/other',
      'index 1111111111111111111111111111111111111111..2222222222222222222222222222222222222222 120000',
      '--- a/other',
      '+++ b/other',
      '@@ -1 +1 @@',
      '-a',
      '\\ No newline at end of file',
      '+b',
      '\\ No newline at end of file',
    );
    const flags = diffFlags(diff);
    expect(flags.symlinks).toEqual(['link', 'other']);
    expect(flags).toMatchObject({ files: 2, additions: 2, deletions: 1 });
  });
});

describe('hidden characters', () => {
  it('reports zero-width, bidi and control characters on added lines only', () => {
    const diff = modify('src/a.ts', '@@ -7,3 +7,6 @@', [
      ' const a = 1;',
      '-const b = "\u202e";',
      '+const b = "\u200b";',
      '+const c = "\tindented\t";',
      '+const d = "\u001b[2J\u0085";',
      ' const e = "\u202e";',
      '+const f = "\ufeff\u{e0041}\u061c";',
    ]);
    expect(diffFlags(diff).hiddenCharacters).toEqual([
      { path: 'src/a.ts', line: 8, codePoints: ['U+200B'] },
      { path: 'src/a.ts', line: 10, codePoints: ['U+001B', 'U+0085'] },
      { path: 'src/a.ts', line: 12, codePoints: ['U+FEFF', 'U+E0041', 'U+061C'] },
    ]);
  });

  it('treats a CR that ends the line as a CRLF line ending, and any other CR as hidden', () => {
    const diff = modify('win.txt', '@@ -1,1 +1,3 @@', [' a\r', '+b\r', '+c\rd']);
    expect(diffFlags(diff).hiddenCharacters).toEqual([
      { path: 'win.txt', line: 3, codePoints: ['U+000D'] },
    ]);
  });

  it('reports a path that holds bidi controls as line 0', () => {
    // "\342\200\256" is U+202E in git's octal quoting.
    const diff = text(
      'diff --git "a/invoice\\342\\200\\256fdp.exe" "b/invoice\\342\\200\\256fdp.exe"',
      'new file mode 100644',
      'index 0000000000000000000000000000000000000000..1111111111111111111111111111111111111111',
      '--- /dev/null',
      '+++ "b/invoice\\342\\200\\256fdp.exe"',
      '@@ -0,0 +1 @@',
      '+x',
    );
    expect(diffFlags(diff).hiddenCharacters).toEqual([
      { path: 'invoice\u202efdp.exe', line: 0, codePoints: ['U+202E'] },
    ]);
  });
});

describe('parsing', () => {
  it('unquotes C-style paths and strips a/ and b/ prefixes', () => {
    const diff = text(
      'diff --git "a/q\\tz" "b/q\\tz"',
      'old mode 100644',
      'new mode 100755',
      'diff --git "a/\\303\\251.txt" "b/\\303\\251.txt"',
      'old mode 100644',
      'new mode 100755',
      'diff --git a/a b.txt b/a b.txt',
      'old mode 100644',
      'new mode 100755',
      'diff --git a/plain "b/with\\"quote"',
      'similarity index 100%',
      'rename from plain',
      'rename to "with\\"quote"',
    );
    expect(parseDiff(diff).map((file) => [file.oldPath, file.newPath, file.status])).toEqual([
      ['q\tz', 'q\tz', 'modified'],
      ['é.txt', 'é.txt', 'modified'],
      ['a b.txt', 'a b.txt', 'modified'],
      ['plain', 'with"quote', 'renamed'],
    ]);
  });

  it('takes a rename with spaces from rename from/to, and --- /+++ names up to the tab', () => {
    const diff = text(
      'diff --git a/r one.txt b/r two.txt',
      'similarity index 90%',
      'rename from r one.txt',
      'rename to r two.txt',
      'index 1111111111111111111111111111111111111111..2222222222222222222222222222222222222222 100644',
      '--- a/r one.txt\t',
      '+++ b/r two.txt\t',
      '@@ -1 +1 @@',
      '-x',
      '+y',
    );
    expect(parseDiff(diff)).toMatchObject([
      { oldPath: 'r one.txt', newPath: 'r two.txt', status: 'renamed', additions: 1 },
    ]);
  });

  it('reads /dev/null as an absent side', () => {
    const [added, deleted] = parseDiff(
      text(
        'diff --git a/n b/n',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/n',
        '@@ -0,0 +1 @@',
        '+x',
        'diff --git a/d b/d',
        'deleted file mode 100644',
        '--- a/d',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-x',
      ),
    );
    expect(added).toMatchObject({ oldPath: null, newPath: 'n', status: 'added' });
    expect(deleted).toMatchObject({ oldPath: 'd', newPath: null, status: 'deleted' });
  });

  it('reads hunks by their counts: removed "--- x" lines and a mail signature are not headers', () => {
    const diff =
      'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n' +
      'Subject: [PATCH] x\n\n---\n a.md | 2 +-\n\n' +
      modify('a.md', '@@ -1,3 +1,2 @@', ['--- a', '-+++ b', '+@@ c', ' -- ']) +
      '-- \nshadowbox\n';
    const flags = diffFlags(diff);
    expect(flags).toMatchObject({ files: 1, additions: 1, deletions: 2 });
    expect(parseDiff(diff)[0]?.lines.map((line) => line.kind + line.text)).toEqual([
      '--- a',
      '-+++ b',
      '+@@ c',
      ' -- ',
    ]);
  });

  it('reads a plain unified diff without diff --git lines', () => {
    const diff = text(
      '--- a/tests/test_a.py\t2026-01-01 00:00:00',
      '+++ b/tests/test_a.py\t2026-01-02 00:00:00',
      '@@ -1,2 +1 @@',
      ' import os',
      '-def test_a(): pass',
      '--- /dev/null',
      '+++ b/new.txt',
      '@@ -0,0 +1 @@',
      '+new',
    );
    const flags = diffFlags(diff);
    expect(flags).toMatchObject({ files: 2, additions: 1, deletions: 1 });
    expect(flags.deletedTests).toEqual([{ path: 'tests/test_a.py', what: 'def test_a(): pass' }]);
    expect(parseDiff(diff)[1]).toMatchObject({ oldPath: null, newPath: 'new.txt' });
  });

  it('gives nothing for an empty diff', () => {
    expect(diffFlags('')).toEqual({
      files: 0,
      additions: 0,
      deletions: 0,
      bytes: 0,
      testFiles: [],
      deletedTests: [],
      disabledTests: [],
      modeChanges: [],
      binaryFiles: [],
      symlinks: [],
      hiddenCharacters: [],
      large: false,
      testEdits: [],
    });
  });
});

describe('large diffs', () => {
  const files = (n: number): string =>
    Array.from({ length: n }, (_, i) => modify(`f${i}.txt`, '@@ -1 +1 @@', ['-a', '+b'])).join('');
  const lines = (n: number): string =>
    modify(
      'big.txt',
      `@@ -0,0 +1,${n} @@`,
      Array.from({ length: n }, (_, i) => `+line ${i}`),
    );

  it('is large over 50 files', () => {
    expect(diffFlags(files(50)).large).toBe(false);
    expect(diffFlags(files(51))).toMatchObject({ files: 51, large: true });
  });

  it('is large over 5000 changed lines', () => {
    expect(diffFlags(lines(5000)).large).toBe(false);
    expect(diffFlags(lines(5001))).toMatchObject({ additions: 5001, large: true });
  });
});

describe('robustness', () => {
  // A small deterministic PRNG, so a failure reproduces.
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 2 ** 32;
    };
  }
  const alphabet = [
    ...Array.from('diff --git a/b "\\\n@@ -+ 0123456789,\t\r'),
    'old mode ',
    'new file mode 120000\n',
    'rename from ',
    'GIT binary patch\n',
    '\n@@ -1,2 +1,3 @@\n',
    '\u202e',
    '\ud800',
    '#[test]\n',
    '"a/\\3',
  ];

  it('never throws on random input or on mutations of a real diff', () => {
    const next = random(42);
    const pick = (): string => alphabet[Math.floor(next() * alphabet.length)] ?? '';
    for (let round = 0; round < 600; round += 1) {
      const noise = Array.from({ length: Math.floor(next() * 80) }, pick).join('');
      const cut = Math.floor(next() * realDiff.length);
      const mutated =
        realDiff.slice(0, cut) + noise + realDiff.slice(cut + Math.floor(next() * 40));
      for (const input of [noise, mutated]) {
        const flags = diffFlags(input);
        expect(flags.bytes).toBe(Buffer.byteLength(input, 'utf8'));
        expect(flags.additions).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('never throws on random bytes', () => {
    const next = random(7);
    for (let round = 0; round < 200; round += 1) {
      const bytes = Buffer.from(
        Array.from({ length: Math.floor(next() * 400) }, () => Math.floor(next() * 256)),
      );
      expect(diffFlags(bytes).bytes).toBe(bytes.length);
    }
  });
});

describe('test edits', () => {
  const added = (path: string, body: string[]): string =>
    text(
      `diff --git a/${path} b/${path}`,
      'new file mode 100644',
      'index 0000000000000000000000000000000000000000..1111111111111111111111111111111111111111',
      '--- /dev/null',
      `+++ b/${path}`,
      `@@ -0,0 +1,${body.length} @@`,
      ...body.map((line) => `+${line}`),
    );
  const whats = (diff: string): string[] => (diffFlags(diff).testEdits ?? []).map((e) => e.what);

  it('sees an assert deleted in a #[cfg(test)] module by the enclosing #[test], or by the hunk header', () => {
    const shown = modify('src/lib.rs', '@@ -10,6 +10,5 @@ mod tests {', [
      '     #[test]',
      '     fn adds() {',
      '         assert_eq!(add(1, 2), 3);',
      '-        assert_eq!(add(-1, 1), 0);',
      '     }',
    ]);
    expect(diffFlags(shown).testEdits).toEqual([
      {
        path: 'src/lib.rs',
        kind: 'test-in-source',
        what: "test code changed in src/lib.rs (in 'fn adds() {')",
      },
    ]);
    const deep = modify('src/lib.rs', '@@ -20,3 +20,2 @@ mod tests {', [
      '         let x = 1;',
      '-        assert_eq!(x, 1);',
      '     }',
    ]);
    expect(whats(deep)).toEqual(["test code changed in src/lib.rs (in 'mod tests {')"]);
  });

  it('does not flag an honest fix to src/lib.rs outside the test module', () => {
    const diff = modify('src/lib.rs', '@@ -1,3 +1,3 @@', [
      ' pub fn add(a: i32, b: i32) -> i32 {',
      '-    a - b',
      '+    a + b',
      ' }',
    ]);
    expect(diffFlags(diff).testEdits).toEqual([]);
  });

  it('flags a pytest.ini added with --deselect, and a renamed test in a root tests.py', () => {
    const diff =
      added('pytest.ini', ['[pytest]', 'addopts = --deselect tests/test_x.py::test_y']) +
      modify('tests.py', '@@ -1,2 +1,2 @@', ['-def test_adds():', '+def adds():', '     assert 1']);
    expect(diffFlags(diff).testEdits).toEqual([
      { path: 'pytest.ini', kind: 'test-config', what: 'pytest.ini adds --deselect' },
      { path: 'tests.py', kind: 'test-file', what: 'tests.py changed' },
    ]);
  });

  it('flags [tool.pytest.ini_options] as far as the hunk shows it, not a [project] version', () => {
    const pytest = modify('pyproject.toml', '@@ -5,2 +5,2 @@', [
      ' [tool.pytest.ini_options]',
      '-addopts = "-q"',
      '+addopts = "-q -k \'not slow\'"',
    ]);
    expect(whats(pytest)).toEqual(['[tool.pytest.ini_options] changed in pyproject.toml']);
    const version = modify('pyproject.toml', '@@ -1,3 +1,3 @@', [
      ' [project]',
      ' name = "calc"',
      '-version = "0.1.0"',
      '+version = "0.2.0"',
    ]);
    expect(whats(version)).toEqual([]);
  });

  it('flags package.json scripts.test, not dependencies', () => {
    const scripts = modify('package.json', '@@ -1,4 +1,4 @@', [
      ' {',
      '   "scripts": {',
      '-    "test": "vitest run",',
      '+    "test": "vitest run src/ok",',
      '     "build": "tsc"',
    ]);
    expect(whats(scripts)).toEqual(['scripts.test changed in package.json']);
    const dependencies = modify('package.json', '@@ -8,3 +8,3 @@', [
      '   "devDependencies": {',
      '-    "vitest": "3.0.0",',
      '+    "vitest": "3.1.0",',
      '     "typescript": "5.0.0"',
    ]);
    expect(whats(dependencies)).toEqual([]);
  });

  it('flags a Cargo.toml [[test]] added and //go:build ignore added', () => {
    const cargo = modify('Cargo.toml', '@@ -4,1 +4,4 @@', [
      ' serde = "1"',
      '+[[test]]',
      '+name = "it"',
      '+harness = false',
    ]);
    const go = modify('calc/add.go', '@@ -1,1 +1,3 @@', [
      '+//go:build ignore',
      '+',
      ' package calc',
    ]);
    expect(whats(cargo + go)).toEqual([
      '[[test]] changed in Cargo.toml',
      "build constraint '//go:build ignore' added in calc/add.go",
    ]);
  });

  it('flags a changed it block body in src/util.ts, not code outside the tests', () => {
    const inside = modify('src/util.ts', '@@ -10,3 +10,3 @@', [
      "   it('adds', () => {",
      '-    expect(add(1, 2)).toBe(3);',
      '+    expect(add(1, 2)).toBeDefined();',
      '   });',
    ]);
    expect(whats(inside)).toEqual(["test code changed in src/util.ts (in 'it('adds', () => {')"]);
    const outside = modify('src/util.ts', '@@ -1,3 +1,3 @@', [
      ' export function add(a: number, b: number): number {',
      '-  return a - b;',
      '+  return a + b;',
      ' }',
    ]);
    expect(whats(outside)).toEqual([]);
  });

  it('is exact when given the files: the whole test module is compared', () => {
    const before =
      'pub fn add() {}\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert!(true);\n        assert!(ok());\n    }\n}\n';
    const after = before.replace('        assert!(ok());\n', '');
    // A hunk far from any marker: the diff alone cannot tell, the files can.
    const diff = modify('src/lib.rs', '@@ -6,2 +6,1 @@', [
      '         assert!(true);',
      '-        assert!(ok());',
    ]);
    expect(diffFlags(diff).testEdits).toEqual([]);
    expect(diffFlags(diff, { files: [{ path: 'src/lib.rs', before, after }] }).testEdits).toEqual([
      {
        path: 'src/lib.rs',
        kind: 'test-in-source',
        what: "test 'tests::adds' changed in src/lib.rs",
      },
    ]);
  });

  it('keeps the stored fields as they were', () => {
    const flags = diffFlags(realDiff);
    expect(flags.testFiles).toEqual(['src/lib.rs', 'tests/test_calc.py']);
    expect(flags.testEdits).toEqual([
      {
        path: 'src/lib.rs',
        kind: 'test-in-source',
        what: "test line '#[test]' removed in src/lib.rs",
      },
      { path: 'tests/test_calc.py', kind: 'test-file', what: 'tests/test_calc.py changed' },
    ]);
  });
});

describe('test edits from a large diff', () => {
  it('stays linear on a long replaced hunk of indented source', () => {
    const n = 20_000;
    const body = [
      ...Array.from({ length: n }, (_, i) => `-        let a${i} = ${i};`),
      ...Array.from({ length: n }, (_, i) => `+        let b${i} = ${i};`),
    ];
    const diff = modify('src/lib.rs', `@@ -1,${n} +1,${n} @@ mod tests {`, body);
    // No stopwatch (a shared machine's timings prove nothing): a quadratic scan of 40,000 lines
    // would not finish within the test's generous time limit, a linear one takes well under.
    expect(diffFlags(diff).testEdits).toEqual([
      {
        path: 'src/lib.rs',
        kind: 'test-in-source',
        what: "test code changed in src/lib.rs (in 'mod tests {')",
      },
    ]);
  }, 120_000);
});
