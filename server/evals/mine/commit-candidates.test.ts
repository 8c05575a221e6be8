import { describe, expect, it } from 'vitest';
import {
  candidacy,
  parseLog,
  parseRawDiff,
  splitChanges,
  type ChangedFile,
  type CommitInfo,
} from './commit-candidates';

const sha = (c: string): string => c.repeat(40);
const file = (path: string, status = 'M', mode = '100644'): ChangedFile => ({
  path,
  status,
  oldMode: status === 'A' ? '000000' : mode,
  newMode: status === 'D' ? '000000' : mode,
});
const commit: CommitInfo = {
  sha: sha('b'),
  parent: sha('a'),
  date: '2024-05-01T10:00:00+02:00',
  message: 'Fix it',
};

describe('parseLog', () => {
  it('reads commits with multi-line messages, first parent, date', () => {
    const text =
      `${sha('c')}\u0000${sha('b')}\u00002024-05-02T00:00:00+00:00\u0000Fix two\n\nBody line\n\u001e\n` +
      `${sha('b')}\u0000\u00002024-05-01T00:00:00+00:00\u0000First\n\u001e\n`;
    expect(parseLog(text)).toEqual([
      {
        sha: sha('c'),
        parent: sha('b'),
        date: '2024-05-02T00:00:00+00:00',
        message: 'Fix two\n\nBody line',
      },
      { sha: sha('b'), parent: null, date: '2024-05-01T00:00:00+00:00', message: 'First' },
    ]);
  });
});

describe('parseRawDiff', () => {
  it('reads status, modes and paths, names with spaces and newlines included', () => {
    const text =
      `:100644 100644 ${sha('1')} ${sha('2')} M\u0000src/a b.py\u0000` +
      `:000000 100755 ${sha('0')} ${sha('3')} A\u0000tests/new\nline.py\u0000` +
      `:100644 000000 ${sha('4')} ${sha('0')} D\u0000old.py\u0000`;
    expect(parseRawDiff(text)).toEqual([
      { path: 'src/a b.py', status: 'M', oldMode: '100644', newMode: '100644' },
      { path: 'tests/new\nline.py', status: 'A', oldMode: '000000', newMode: '100755' },
      { path: 'old.py', status: 'D', oldMode: '100644', newMode: '000000' },
    ]);
  });
});

describe('splitChanges', () => {
  it('puts test files (as the review flags them) in tests and the rest in sources', () => {
    const files = [
      file('src/calc.py'),
      file('tests/test_calc.py'),
      file('test_root.py'),
      file('pkg/util_test.go'),
      file('web/button.spec.ts'),
      file('src/testing_helpers.py'),
      file('README.md'),
    ];
    const { tests, sources } = splitChanges(files);
    expect(tests.map((f) => f.path)).toEqual([
      'tests/test_calc.py',
      'test_root.py',
      'pkg/util_test.go',
      'web/button.spec.ts',
    ]);
    expect(sources.map((f) => f.path)).toEqual([
      'src/calc.py',
      'src/testing_helpers.py',
      'README.md',
    ]);
  });
});

describe('candidacy', () => {
  it('takes a commit that changes tests and other files', () => {
    const verdict = candidacy(commit, [file('calc.py'), file('test_calc.py', 'A')]);
    expect(verdict).toMatchObject({
      ok: true,
      candidate: { sha: sha('b'), parent: sha('a'), tests: [{ path: 'test_calc.py' }] },
    });
  });

  it.each([
    ['a root commit', { ...commit, parent: null }, [file('a.py'), file('test_a.py')], 'no parent'],
    ['a commit without test changes', commit, [file('a.py')], 'changes no test file'],
    ['a commit of tests only', commit, [file('test_a.py')], 'changes only test files'],
    [
      'a commit changing a symbolic link',
      commit,
      [file('a.py'), file('test_a.py'), file('link', 'M', '120000')],
      'changes a link or submodule (link)',
    ],
    [
      'a commit changing a submodule',
      commit,
      [file('a.py'), file('test_a.py'), file('vendor/lib', 'A', '160000')],
      'changes a link or submodule (vendor/lib)',
    ],
  ])('refuses %s', (_what, info, files, reason) => {
    const verdict = candidacy(info, files);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.reason).toContain(reason);
  });
});
