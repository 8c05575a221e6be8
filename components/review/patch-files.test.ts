import { html } from 'diff2html';
import { describe, expect, it } from 'vitest';
import { filePair } from './file-contents';
import { planPatch, splitPatch, unquote } from './patch-files';

const mail = [
  'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001',
  'From: Shadowbox <shadowbox@localhost.invalid>',
  'Subject: [PATCH] Fix add',
  '',
  '---',
  ' calc.py | 3 ++-',
  ' 1 file changed, 2 insertions(+), 1 deletion(-)',
  '',
  'diff --git a/calc.py b/calc.py',
  'index 1111111..2222222 100644',
  '--- a/calc.py',
  '+++ b/calc.py',
  '@@ -1,3 +1,4 @@',
  ' def add(a, b):',
  // A removed line that looks like a header, and an added one that looks like a file.
  '--- old comment',
  '+    return a + b',
  '+diff --git a/x b/x',
  ' ',
  'diff --git "a/caf\\303\\251 menu.txt" "b/caf\\303\\251 menu.txt"',
  'new file mode 100755',
  'index 0000000..3333333',
  '--- /dev/null',
  '+++ "b/caf\\303\\251 menu.txt"',
  '@@ -0,0 +1,2 @@',
  '+hello',
  '+world',
  '\\ No newline at end of file',
  'diff --git a/logo.png b/logo.png',
  'new file mode 100644',
  'index 0000000..4444444',
  'GIT binary patch',
  'literal 4',
  'LcmZQzWMT#Y01f~L',
  '',
  'literal 0',
  'HcmV?d00001',
  '',
  'diff --git a/old.py b/new.py',
  'similarity index 100%',
  'rename from old.py',
  'rename to new.py',
  '-- ',
  '2.47.0',
  '',
].join('\n');

describe('splitPatch', () => {
  it('splits a patch mail into one diff per file, reading hunks by their counts', () => {
    const files = splitPatch(mail);
    expect(files.map((f) => [f.path, f.status, f.additions, f.deletions, f.binary])).toEqual([
      ['calc.py', 'modified', 2, 1, false],
      ['café menu.txt', 'added', 2, 0, false],
      ['logo.png', 'added', 0, 0, true],
      ['new.py', 'renamed', 0, 0, false],
    ]);
    expect(files[0]?.text.split('\n').at(-2)).toBe(' ');
    expect(files[0]?.text).toContain('+diff --git a/x b/x');
    expect(files[1]?.text.endsWith('\\ No newline at end of file\n')).toBe(true);
    expect(files[2]?.text.endsWith('HcmV?d00001\n')).toBe(true);
    expect(files[3]?.oldPath).toBe('old.py');
    // The mail's signature belongs to no file.
    expect(files.some((file) => file.text.includes('2.47.0'))).toBe(false);
  });

  it('gives diff2html one file at a time', () => {
    const [calc] = splitPatch(mail);
    const rendered = html(calc?.text ?? '', { outputFormat: 'side-by-side', drawFileList: false });
    const text = rendered.replace(/<[^>]*>/g, '');
    expect(text).toContain('calc.py');
    expect(text).toContain('return a + b');
    expect(text).toContain('-- old comment');
    expect(rendered).not.toContain('menu.txt');
  });

  it('unquotes C-quoted paths', () => {
    expect(unquote('"tab\\there"')).toBe('tab\there');
    expect(unquote('plain.txt')).toBe('plain.txt');
  });
});

describe('planPatch', () => {
  it('renders small diffs at once and summarises large ones', () => {
    expect(planPatch(mail).summaryOnly).toBe(false);
    const big = [
      'diff --git a/data.txt b/data.txt',
      '--- a/data.txt',
      '+++ b/data.txt',
      '@@ -1,0 +1,3001 @@',
      ...Array.from({ length: 3001 }, (_, i) => `+line ${i}`),
      '',
    ].join('\n');
    const plan = planPatch(big);
    expect(plan.changedLines).toBe(3001);
    expect(plan.summaryOnly).toBe(true);
    expect(planPatch(big, 5000).summaryOnly).toBe(false);
  });
});

describe('filePair', () => {
  const [calc, menu, logo] = splitPatch(mail);
  const fixed = 'def add(a, b):\n    return a + b\ndiff --git a/x b/x\n\n';

  it('rebuilds the old side of a file from the fixed one', () => {
    expect(filePair(calc!, fixed)).toEqual({
      original: 'def add(a, b):\n-- old comment\n\n',
      modified: fixed,
    });
  });

  it('rebuilds the new side when the workspace holds the old one (after a rollback)', () => {
    const old = 'def add(a, b):\n-- old comment\n\n';
    expect(filePair(calc!, old)).toEqual({ original: old, modified: fixed });
  });

  it('handles added, binary and unrelated files', () => {
    expect(filePair(menu!, null)).toEqual({ original: '', modified: 'hello\nworld' });
    expect(filePair(logo!, null)).toBeNull();
    expect(filePair(calc!, 'something else entirely\n')).toBeNull();
  });
});
