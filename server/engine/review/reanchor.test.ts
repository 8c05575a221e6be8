import { describe, expect, it } from 'vitest';
import { parseDiff } from './git-diff';
import {
  anchoredText,
  reanchor,
  visibleLines,
  type Reanchored,
  type ThreadAnchor,
} from './reanchor';

const text = (...lines: string[]): string => `${lines.join('\n')}\n`;

// The baseline's src/app.ts (13 lines: `one`, `two`, `three`), then checkpoints made from it with
// git; each diff below is `git diff base <checkpoint>` as git printed it.

/** The first checkpoint: `two` returns `a * 2`. The threads below were written on this diff. */
const first = text(
  'diff --git a/src/app.ts b/src/app.ts',
  'index 8877625..ba082be 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -5,7 +5,7 @@ export function one() {',
  ' }',
  ' ',
  ' export function two() {',
  '-  return a + 2;',
  '+  return a * 2;',
  ' }',
  ' ',
  ' export function three() {',
);

/** Two lines inserted after the first line, as a `git format-patch` mail. */
const movedDown = text(
  'From 571054c0000000000000000000000000000000 Mon Sep 17 00:00:00 2001',
  'From: Shadowbox <shadowbox@localhost>',
  'Subject: [PATCH] checkpoint',
  '',
  '---',
  ' src/app.ts | 4 +++-',
  ' 1 file changed, 3 insertions(+), 1 deletion(-)',
  '',
  'diff --git a/src/app.ts b/src/app.ts',
  'index 8877625..571054c 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,11 +1,13 @@',
  " import { a } from './a';",
  "+import { b } from './b';",
  '+// two more lines',
  ' ',
  ' export function one() {',
  '   return a + 1;',
  ' }',
  ' ',
  ' export function two() {',
  '-  return a + 2;',
  '+  return a * 2;',
  ' }',
  ' ',
  ' export function three() {',
  '-- ',
  '2.47.0',
);

/** The first two lines removed. */
const movedUp = text(
  'diff --git a/src/app.ts b/src/app.ts',
  'index 8877625..7255b72 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,11 +1,9 @@',
  "-import { a } from './a';",
  '-',
  ' export function one() {',
  '   return a + 1;',
  ' }',
  ' ',
  ' export function two() {',
  '-  return a + 2;',
  '+  return a * 2;',
  ' }',
  ' ',
  ' export function three() {',
);

/** `two` now returns `a * 3`. */
const edited = text(
  'diff --git a/src/app.ts b/src/app.ts',
  'index 8877625..610d34e 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -5,7 +5,7 @@ export function one() {',
  ' }',
  ' ',
  ' export function two() {',
  '-  return a + 2;',
  '+  return a * 3;',
  ' }',
  ' ',
  ' export function three() {',
);

/** `two` removed altogether. */
const codeDeleted = text(
  'diff --git a/src/app.ts b/src/app.ts',
  'index 8877625..4fc8cc2 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -4,10 +4,6 @@ export function one() {',
  '   return a + 1;',
  ' }',
  ' ',
  '-export function two() {',
  '-  return a + 2;',
  '-}',
  '-',
  ' export function three() {',
  '   return a + 3;',
  ' }',
);

/** The first checkpoint's change, with the file renamed to src/main.ts. */
const renamed = text(
  'diff --git a/src/app.ts b/src/main.ts',
  'similarity index 89%',
  'rename from src/app.ts',
  'rename to src/main.ts',
  'index 8877625..ba082be 100644',
  '--- a/src/app.ts',
  '+++ b/src/main.ts',
  '@@ -5,7 +5,7 @@ export function one() {',
  ' }',
  ' ',
  ' export function two() {',
  '-  return a + 2;',
  '+  return a * 2;',
  ' }',
  ' ',
  ' export function three() {',
);

/** src/app.ts deleted. */
const fileDeleted = text(
  'diff --git a/src/app.ts b/src/app.ts',
  'deleted file mode 100644',
  'index 8877625..0000000',
  '--- a/src/app.ts',
  '+++ /dev/null',
  '@@ -1,13 +0,0 @@',
  "-import { a } from './a';",
  '-',
  '-export function one() {',
  '-  return a + 1;',
  '-}',
  '-',
  '-export function two() {',
  '-  return a + 2;',
  '-}',
  '-',
  '-export function three() {',
  '-  return a + 3;',
  '-}',
);

/** src/app.ts back as in the baseline; only src/a.ts changed. */
const otherFile = text(
  'diff --git a/src/a.ts b/src/a.ts',
  'index cc798ff..66d48fc 100644',
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -1 +1 @@',
  '-export const a = 1;',
  '+export const a = 2;',
);

/** The first checkpoint with trailing spaces after the edited line. */
const trailingSpaces = first.replace('+  return a * 2;\n', '+  return a * 2;   \n');

/** The first checkpoint as a CRLF file shows it: every line of the file ends with `\r`. */
const crlf = first.replace(/^([ +-](?![-+]{2} ).*)$/gm, '$1\r');

/** The first checkpoint with the edited line re-indented: not the same code any more. */
const reindented = first.replace('+  return a * 2;\n', '+    return a * 2;\n');

/** A new file in which `log('done')` (and `log('done'); close();`) appears twice. */
const duplicates = text(
  'diff --git a/src/io.ts b/src/io.ts',
  'new file mode 100644',
  'index 0000000..5d1ce2b',
  '--- /dev/null',
  '+++ b/src/io.ts',
  '@@ -0,0 +1,13 @@',
  '+export function save() {',
  '+  open();',
  "+  log('done');",
  '+  close();',
  '+}',
  '+',
  '+export function load() {',
  '+  open();',
  '+  read();',
  '+  check();',
  "+  log('done');",
  '+  close();',
  '+}',
);

/** src/long.ts, `const v1 = 1;` … `const v20 = 20;`, with v6…v15 removed: v5 and v16 meet. */
const longFirst = text(
  'diff --git a/src/long.ts b/src/long.ts',
  'index 9c83316..ac2db70 100644',
  '--- a/src/long.ts',
  '+++ b/src/long.ts',
  '@@ -3,16 +3,6 @@ const v2 = 2;',
  ' const v3 = 3;',
  ' const v4 = 4;',
  ' const v5 = 5;',
  '-const v6 = 6;',
  '-const v7 = 7;',
  '-const v8 = 8;',
  '-const v9 = 9;',
  '-const v10 = 10;',
  '-const v11 = 11;',
  '-const v12 = 12;',
  '-const v13 = 13;',
  '-const v14 = 14;',
  '-const v15 = 15;',
  ' const v16 = 16;',
  ' const v17 = 17;',
  ' const v18 = 18;',
);

/** src/long.ts with v6…v15 back and v2, v19 edited: v5 and v16 end two hunks, apart again. */
const longSecond = text(
  'diff --git a/src/long.ts b/src/long.ts',
  'index 9c83316..b65e14e 100644',
  '--- a/src/long.ts',
  '+++ b/src/long.ts',
  '@@ -1,5 +1,5 @@',
  ' const v1 = 1;',
  '-const v2 = 2;',
  '+const v2 = 22;',
  ' const v3 = 3;',
  ' const v4 = 4;',
  ' const v5 = 5;',
  '@@ -16,5 +16,5 @@ const v15 = 15;',
  ' const v16 = 16;',
  ' const v17 = 17;',
  ' const v18 = 18;',
  '-const v19 = 19;',
  '+const v19 = 190;',
  ' const v20 = 20;',
);

/** Only `two`'s signature changed: its `return a + 2;` is context now, removed no more. */
const signature = text(
  'diff --git a/src/app.ts b/src/app.ts',
  'index 8877625..a857025 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -4,7 +4,7 @@ export function one() {',
  '   return a + 1;',
  ' }',
  ' ',
  '-export function two() {',
  '+export function two(): number {',
  '   return a + 2;',
  ' }',
  ' ',
);

/** Only the import changed: the diff shows none of `two`. */
const importOnly = text(
  'diff --git a/src/app.ts b/src/app.ts',
  'index 8877625..6dcb2b0 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -1,4 +1,4 @@',
  "-import { a } from './a';",
  "+import { a } from './b';",
  ' ',
  ' export function one() {',
  '   return a + 1;',
);

const binary = text(
  'diff --git a/src/app.ts b/src/app.ts',
  'index 8877625..0f1e2d3 100644',
  'Binary files a/src/app.ts and b/src/app.ts differ',
);

const anchor = (
  path: string,
  side: ThreadAnchor['side'],
  startLine: number,
  lines: readonly string[],
): ThreadAnchor => ({ path, side, startLine, endLine: startLine + lines.length - 1, lines });

const moved = (thread: ThreadAnchor, path: string, startLine: number): Reanchored => ({
  kind: 'moved',
  anchor: anchor(path, thread.side, startLine, thread.lines),
});

const outdated = (reason: string): Reanchored => ({ kind: 'outdated', reason });

/** A thread on `  return a * 2;`, line 8 of the first checkpoint's src/app.ts. */
const onEdit = anchor('src/app.ts', 'new', 8, ['  return a * 2;']);
/** A thread on the whole of `two` (lines 7-9). */
const onTwo = anchor('src/app.ts', 'new', 7, ['export function two() {', '  return a * 2;', '}']);
/** A thread on the removed `  return a + 2;`, line 8 of the baseline. */
const onRemoved = anchor('src/app.ts', 'old', 8, ['  return a + 2;']);
const logDone = ["  log('done');"];
const logAndClose = ["  log('done');", '  close();'];
const codeGone = outdated('the code it was written on is no longer in the diff');

describe('reanchor', () => {
  const cases: readonly {
    name: string;
    thread: ThreadAnchor;
    diff: string;
    expected: Reanchored;
  }[] = [
    {
      name: 'stays put when the code has not moved',
      thread: onEdit,
      diff: first,
      expected: moved(onEdit, 'src/app.ts', 8),
    },
    {
      name: 'moves down when lines are inserted above',
      thread: onEdit,
      diff: movedDown,
      expected: moved(onEdit, 'src/app.ts', 10),
    },
    {
      name: 'moves up when lines above are removed',
      thread: onEdit,
      diff: movedUp,
      expected: moved(onEdit, 'src/app.ts', 6),
    },
    {
      name: 'is outdated when its line is edited',
      thread: onEdit,
      diff: edited,
      expected: codeGone,
    },
    {
      name: 'is outdated when its code is deleted',
      thread: onEdit,
      diff: codeDeleted,
      expected: codeGone,
    },
    {
      name: 'follows its file to a new name',
      thread: onEdit,
      diff: renamed,
      expected: moved(onEdit, 'src/main.ts', 8),
    },
    {
      name: 'is outdated when its file is deleted',
      thread: onEdit,
      diff: fileDeleted,
      expected: outdated('the file was deleted'),
    },
    {
      name: 'is outdated when its file is no longer changed',
      thread: onEdit,
      diff: otherFile,
      expected: outdated('the file is no longer changed'),
    },
    {
      name: 'is outdated when its file is now binary',
      thread: onEdit,
      diff: binary,
      expected: outdated('the file is binary'),
    },
    {
      name: 'moves a multi-line range as a whole',
      thread: onTwo,
      diff: movedDown,
      expected: moved(onTwo, 'src/app.ts', 9),
    },
    {
      name: 'outdates a multi-line range when one of its lines is edited',
      thread: onTwo,
      diff: edited,
      expected: codeGone,
    },
    {
      name: 'ignores trailing spaces',
      thread: onEdit,
      diff: trailingSpaces,
      expected: moved(onEdit, 'src/app.ts', 8),
    },
    {
      name: 'ignores the \\r of a CRLF file',
      thread: onEdit,
      diff: crlf,
      expected: moved(onEdit, 'src/app.ts', 8),
    },
    {
      name: 'does not ignore leading whitespace',
      thread: onEdit,
      diff: reindented,
      expected: codeGone,
    },
    {
      name: 'keeps an old side thread where the new diff still removes its line',
      thread: onRemoved,
      diff: movedDown,
      expected: moved(onRemoved, 'src/app.ts', 8),
    },
    {
      name: 'keeps an old side thread on the old path of a renamed file',
      thread: onRemoved,
      diff: renamed,
      expected: moved(onRemoved, 'src/app.ts', 8),
    },
    {
      name: 'keeps an old side thread when the file is deleted (its lines are all removed)',
      thread: onRemoved,
      diff: fileDeleted,
      expected: moved(onRemoved, 'src/app.ts', 8),
    },
    {
      name: 'keeps an old side thread whose line the new diff shows as context',
      thread: onRemoved,
      diff: signature,
      expected: moved(onRemoved, 'src/app.ts', 8),
    },
    {
      name: 'outdates an old side thread whose line the new diff does not show',
      thread: onRemoved,
      diff: importOnly,
      expected: codeGone,
    },
    {
      name: 'outdates an old side thread when the file is no longer changed',
      thread: onRemoved,
      diff: otherFile,
      expected: outdated('the file is no longer changed'),
    },
    {
      name: 'takes the nearest duplicate, above the old place',
      thread: anchor('src/io.ts', 'new', 5, logDone),
      diff: duplicates,
      expected: moved(anchor('src/io.ts', 'new', 5, logDone), 'src/io.ts', 3),
    },
    {
      name: 'takes the nearest duplicate, below the old place',
      thread: anchor('src/io.ts', 'new', 9, logDone),
      diff: duplicates,
      expected: moved(anchor('src/io.ts', 'new', 9, logDone), 'src/io.ts', 11),
    },
    {
      name: 'takes the earlier duplicate on a tie',
      thread: anchor('src/io.ts', 'new', 7, logDone),
      diff: duplicates,
      expected: moved(anchor('src/io.ts', 'new', 7, logDone), 'src/io.ts', 3),
    },
    {
      name: 'takes the nearest multi-line duplicate',
      thread: anchor('src/io.ts', 'new', 10, logAndClose),
      diff: duplicates,
      expected: moved(anchor('src/io.ts', 'new', 10, logAndClose), 'src/io.ts', 11),
    },
    {
      name: 'finds code that moved far from its old place',
      thread: anchor('src/io.ts', 'new', 400, logAndClose),
      diff: duplicates,
      expected: moved(anchor('src/io.ts', 'new', 400, logAndClose), 'src/io.ts', 11),
    },
    {
      name: 'does not match text split across two hunks',
      thread: anchor('src/long.ts', 'new', 5, ['const v5 = 5;', 'const v16 = 16;']),
      diff: longSecond,
      expected: codeGone,
    },
    {
      name: 'is outdated with no anchored lines',
      thread: anchor('src/app.ts', 'new', 8, []),
      diff: first,
      expected: outdated('the thread has no anchored code'),
    },
  ];

  for (const { name, thread, diff, expected } of cases) {
    it(name, () => {
      expect(reanchor(thread, diff)).toEqual(expected);
    });
  }

  it('reads parsed files as it reads the diff text', () => {
    expect(reanchor(onEdit, parseDiff(movedDown))).toEqual(moved(onEdit, 'src/app.ts', 10));
  });

  it('matches the split text when its lines are contiguous again', () => {
    const thread = anchor('src/long.ts', 'new', 5, ['const v5 = 5;', 'const v16 = 16;']);
    expect(anchoredText(longFirst, 'src/long.ts', 'new', 5, 6)).toEqual(thread.lines);
    expect(reanchor(thread, longFirst)).toEqual(moved(thread, 'src/long.ts', 5));
    expect(reanchor(thread, longSecond)).toEqual(codeGone);
  });

  it('keeps the thread its own text, whatever the new diff has around it', () => {
    const result = reanchor(onEdit, crlf);
    expect(result.kind === 'moved' && result.anchor.lines).toBe(onEdit.lines);
  });
});

describe('visibleLines', () => {
  it('gives context and added lines for the new side, context and removed for the old', () => {
    const [file] = parseDiff(first);
    if (file === undefined) throw new Error('no file');
    expect(visibleLines(file, 'new')).toEqual([
      { line: 5, text: '}' },
      { line: 6, text: '' },
      { line: 7, text: 'export function two() {' },
      { line: 8, text: '  return a * 2;' },
      { line: 9, text: '}' },
      { line: 10, text: '' },
      { line: 11, text: 'export function three() {' },
    ]);
    expect(visibleLines(file, 'old').map((l) => [l.line, l.text])).toEqual([
      [5, '}'],
      [6, ''],
      [7, 'export function two() {'],
      [8, '  return a + 2;'],
      [9, '}'],
      [10, ''],
      [11, 'export function three() {'],
    ]);
  });
});

describe('anchoredText', () => {
  it('gives the text of lines the diff shows', () => {
    expect(anchoredText(first, 'src/app.ts', 'new', 7, 9)).toEqual(onTwo.lines);
    expect(anchoredText(first, 'src/app.ts', 'new', 8, 8)).toEqual(['  return a * 2;']);
    expect(anchoredText(first, 'src/app.ts', 'old', 8, 8)).toEqual(['  return a + 2;']);
    expect(anchoredText(renamed, 'src/main.ts', 'new', 8, 8)).toEqual(['  return a * 2;']);
    expect(anchoredText(renamed, 'src/app.ts', 'old', 8, 8)).toEqual(['  return a + 2;']);
  });

  it('is null when a line of the range is not shown', () => {
    expect(anchoredText(first, 'src/app.ts', 'new', 3, 6)).toBeNull(); // 3 and 4 are outside the hunk
    expect(anchoredText(first, 'src/app.ts', 'new', 11, 12)).toBeNull();
    expect(anchoredText(longSecond, 'src/long.ts', 'new', 5, 16)).toBeNull(); // between the hunks
    expect(anchoredText(renamed, 'src/app.ts', 'new', 8, 8)).toBeNull(); // not the new path
    expect(anchoredText(first, 'src/other.ts', 'new', 8, 8)).toBeNull();
    expect(anchoredText(binary, 'src/app.ts', 'new', 1, 1)).toBeNull();
    expect(anchoredText(first, 'src/app.ts', 'new', 9, 8)).toBeNull();
    expect(anchoredText(first, 'src/app.ts', 'new', 0, 0)).toBeNull();
  });
});
