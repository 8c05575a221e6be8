import { describe, expect, it } from 'vitest';
import type { FileState } from './hypothesis';
import { diffChange, diffChanges } from './unified-diff';

const file = (content: string, mode = 0o644): FileState => ({
  exists: true,
  content: Buffer.from(content),
  mode,
});

describe('unified diffs in git format', () => {
  it('diffs a modified file', () => {
    const diff = diffChange({
      path: 'src/lib.rs',
      before: file('a\nb\nc\n'),
      after: Buffer.from('a\nB\nc\n'),
    });
    expect(diff.text).toBe(
      'diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n',
    );
    expect(diff.changedLines).toBe(2);
  });

  it('diffs a created file against /dev/null with its mode', () => {
    const diff = diffChange({
      path: 'new.txt',
      before: { exists: false },
      after: Buffer.from('x\n'),
    });
    expect(diff.text).toBe(
      'diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+x\n',
    );
    expect(diff.changedLines).toBe(1);
  });

  it('diffs a deleted executable', () => {
    const diff = diffChange({
      path: 'run.sh',
      before: file('#!/bin/sh\necho\n', 0o755),
      after: null,
    });
    expect(diff.text).toContain('deleted file mode 100755\n--- a/run.sh\n+++ /dev/null\n');
    expect(diff.changedLines).toBe(2);
  });

  it('marks a missing final newline as git does', () => {
    expect(diffChange({ path: 'a', before: file('x\n'), after: Buffer.from('y') }).text).toContain(
      '+y\n\\ No newline at end of file\n',
    );
  });

  it('reports binary files without hunks', () => {
    const diff = diffChange({
      path: 'img.bin',
      before: file('a\u0000b'),
      after: Buffer.from('c\u0000d'),
    });
    expect(diff.text).toBe(
      'diff --git a/img.bin b/img.bin\nBinary files a/img.bin and b/img.bin differ\n',
    );
    expect(diff.changedLines).toBe(1);
  });

  it('is empty for an edit that changes nothing, and sorts files by path', () => {
    expect(diffChange({ path: 'a', before: file('same'), after: Buffer.from('same') })).toEqual({
      text: '',
      changedLines: 0,
    });
    const both = diffChanges([
      { path: 'z.txt', before: { exists: false }, after: Buffer.from('z\n') },
      { path: 'a.txt', before: { exists: false }, after: Buffer.from('a\n') },
    ]);
    expect(both.text.indexOf('a/a.txt')).toBeLessThan(both.text.indexOf('a/z.txt'));
    expect(both.changedLines).toBe(2);
  });
});
