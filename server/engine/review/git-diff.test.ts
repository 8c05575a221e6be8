import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diffSections, parseDiff, unquotePath } from './git-diff';

const text = (...lines: string[]): string => `${lines.join('\n')}\n`;

describe('diffSections', () => {
  const mail = text(
    'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001',
    'Subject: [PATCH] x',
    '',
    '---',
    '',
    'diff --git a/a.txt b/a.txt',
    '--- a/a.txt',
    '+++ b/a.txt',
    '@@ -1 +1,2 @@',
    ' a',
    '+b',
    'diff --git a/logo.png b/logo.png',
    'new file mode 100644',
    'GIT binary patch',
    'literal 4',
    'LcmZQzWMT#Y01f~L',
    '',
    'literal 0',
    'HcmV?d00001',
    '',
    'diff --git a/old b/new',
    'similarity index 100%',
    'rename from old',
    'rename to new',
    '-- ',
    '2.47.0',
  );

  it('gives each file the lines of its section, without the mail around it or its signature', () => {
    const lines = mail.split('\n');
    const sections = diffSections(mail);
    expect(sections.map((s) => [s.file.newPath, s.git])).toEqual([
      ['a.txt', true],
      ['logo.png', true],
      ['new', true],
    ]);
    expect(sections.map((s) => lines.slice(s.start, s.end).at(-1))).toEqual([
      '+b',
      '', // the binary patch's closing blank line; the reader trims it if it likes
      'rename to new',
    ]);
    expect(sections.map((s) => lines[s.start])).toEqual([
      'diff --git a/a.txt b/a.txt',
      'diff --git a/logo.png b/logo.png',
      'diff --git a/old b/new',
    ]);
    expect(parseDiff(mail)).toEqual(sections.map((s) => s.file));
  });

  it('tells a plain unified diff section from a git one', () => {
    const diff = text('--- a/x', '+++ b/x', '@@ -1 +1 @@', '-x', '+y', 'trailing junk');
    expect(diffSections(diff)).toMatchObject([{ git: false, start: 0, end: 5 }]);
  });

  it('numbers each line in the old and the new file, 0 on the side it is not on', () => {
    const diff = text(
      'diff --git a/x b/x',
      '--- a/x',
      '+++ b/x',
      '@@ -10,5 +20,6 @@ f',
      ' a',
      '-b',
      '-c',
      '+B',
      ' d',
      '+e',
      '+f',
      ' g',
      '@@ -30 +41,0 @@',
      '-h',
    );
    const [file] = parseDiff(diff);
    expect(file?.lines.map((l) => [l.kind, l.text, l.oldLine, l.newLine, l.hunk])).toEqual([
      [' ', 'a', 10, 20, 0],
      ['-', 'b', 11, 0, 0],
      ['-', 'c', 12, 0, 0],
      ['+', 'B', 0, 21, 0],
      [' ', 'd', 13, 22, 0],
      ['+', 'e', 0, 23, 0],
      ['+', 'f', 0, 24, 0],
      [' ', 'g', 14, 25, 0],
      ['-', 'h', 30, 0, 1],
    ]);
  });

  it('unquotes names from the diff --git line when no other line names the file', () => {
    const diff = text(
      'diff --git "a/t\\tb.txt" "b/t\\tb.txt"',
      'old mode 100644',
      'new mode 100755',
    );
    expect(parseDiff(diff)).toMatchObject([{ oldPath: 't\tb.txt', newPath: 't\tb.txt' }]);
  });

  it('reads a hunk whose function context holds a line separator', () => {
    const diff = text(
      'diff --git a/x b/x',
      '--- a/x',
      '+++ b/x',
      '@@ -1 +1 @@ f\u2028g',
      '-x',
      '+y',
    );
    expect(parseDiff(diff)).toMatchObject([
      { additions: 1, deletions: 1, hunkContexts: ['f\u2028g'] },
    ]);
  });
});

describe('unquotePath', () => {
  it('undoes C quoting, octal UTF-8 bytes included, and keeps plain names', () => {
    expect(unquotePath('"caf\\303\\251 \\"x\\"\\\\.txt"')).toBe('café "x"\\.txt');
    expect(unquotePath('"tab\\there"')).toBe('tab\there');
    expect(unquotePath('plain.txt')).toBe('plain.txt');
    expect(unquotePath('"')).toBe('"');
  });
});

describe('the browser door', () => {
  it('imports nothing that needs node, so a client component can bundle it', () => {
    const source = (path: string): string => readFileSync(new URL(path, import.meta.url), 'utf8');
    const imports = (path: string): (string | undefined)[] => [
      ...new Set(
        [
          ...source(path)
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .matchAll(/from '([^']+)'/g),
        ].map((match) => match[1]),
      ),
    ];
    expect(source('./git-diff.ts')).not.toMatch(/^\s*import\b|\brequire\(|\bBuffer\b/m);
    expect(source('./reanchor.ts')).not.toMatch(/\brequire\(|\bBuffer\b/);
    expect(imports('./reanchor.ts')).toEqual(['./git-diff']);
    expect(imports('../diff.ts')).toEqual(['./review/git-diff', './review/reanchor']);
  });
});
