import { describe, expect, it } from 'vitest';
import type { FileState, PreparedChange } from './hypothesis';
import { sameTreeAs, treeKey } from './same-tree';

const file = (text: string): FileState => ({
  exists: true,
  content: Buffer.from(text),
  mode: 0o644,
});
const missing: FileState = { exists: false };
const write = (path: string, text: string, before: FileState = file('old\n')): PreparedChange => ({
  path,
  before,
  after: Buffer.from(text),
});
const remove = (path: string): PreparedChange => ({ path, before: file('old\n'), after: null });

describe('treeKey (what a hypothesis leaves the workspace as)', () => {
  it('ignores the order of edits and deletions', () => {
    const a = [write('src/a.rs', 'A'), write('src/b.rs', 'B'), remove('old.rs')];
    const b = [remove('old.rs'), write('src/b.rs', 'B'), write('src/a.rs', 'A')];
    expect(treeKey(a)).toBe(treeKey(b));
  });

  it('drops an edit that writes a file as it is: such a hypothesis is the baseline', () => {
    expect(treeKey([write('a.py', 'same\n', file('same\n'))])).toBe(treeKey([]));
    expect(treeKey([write('a.py', 'same\n', file('same\n')), write('b.py', 'B')])).toBe(
      treeKey([write('b.py', 'B')]),
    );
  });

  it('tells apart contents that differ in a byte: line endings, a final newline', () => {
    const keys = ['x\n', 'x\r\n', 'x', 'x \n'].map((text) => treeKey([write('a.py', text)]));
    expect(new Set(keys).size).toBe(4);
  });

  it('tells apart paths that differ in case or Unicode normal form', () => {
    const keys = ['Lib.py', 'lib.py', 'caf\u00e9.py', 'cafe\u0301.py'].map((p) =>
      treeKey([write(p, 'x')]),
    );
    expect(new Set(keys).size).toBe(4);
  });

  it('tells a deletion from an emptied file, and a created empty file from no change', () => {
    expect(treeKey([remove('a.py')])).not.toBe(treeKey([write('a.py', '')]));
    expect(treeKey([write('new.py', '', missing)])).not.toBe(treeKey([]));
  });

  it('cannot be fooled by a path and content that run together', () => {
    expect(treeKey([write('a', 'bc')])).not.toBe(treeKey([write('ab', 'c')]));
    expect(treeKey([write('a', 'x'), write('b', 'y')])).not.toBe(treeKey([write('a', 'x1:by')]));
  });
});

describe('sameTreeAs (which hypotheses run)', () => {
  it('names, for each later member of a tree, the first of it; null for the ones that run', () => {
    const members = [
      { name: 'fix-1', key: 'k1' },
      { name: 'fix-2', key: 'k2' },
      { name: 'fix-3', key: 'k2' },
      { name: 'fix-4', key: 'k1' },
      { name: 'fix-5', key: 'k2' },
    ];
    expect(sameTreeAs(members)).toEqual([null, null, 'fix-2', 'fix-1', 'fix-2']);
  });
});
