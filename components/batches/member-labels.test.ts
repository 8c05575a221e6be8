import { describe, expect, it } from 'vitest';
import type { BatchMember } from './batch-types';
import { andList, batchName, labelsOf, memberCount, memberLabel } from './member-labels';

const member = (taskId: string, position: number, title: string): BatchMember => ({
  taskId,
  title,
  position,
  headCommit: 'a'.repeat(40),
  diffSha256: 'd'.repeat(64),
  fixed: [],
  dropped: null,
});

const labelOf = labelsOf([
  member('t1', 0, 'fix-baz'),
  member('t2', 1, 'fix-foo'),
  member('t3', 2, 'fix-bar'),
]);

describe('member labels', () => {
  it('number members from 1 and name them by title, or by id without one', () => {
    expect(memberLabel(member('t2', 1, 'fix-foo'))).toBe('#2 fix-foo');
    expect(memberLabel(member('t9', 0, ' '))).toBe('#1 task t9');
    expect(labelOf('t3')).toBe('#3 fix-bar');
    expect(labelOf('gone')).toBe('task gone');
  });

  it('lists items the way a sentence does', () => {
    expect(andList([])).toBe('');
    expect(andList(['a'])).toBe('a');
    expect(andList(['a', 'b'])).toBe('a and b');
    expect(andList(['a', 'b', 'c'])).toBe('a, b and c');
  });
});

describe('batchName and memberCount', () => {
  const dropped = { by: 'rita', at: '2026-12-06T10:00:00Z' };
  const members = [
    member('t3', 2, 'fix-bar'),
    { ...member('t2', 1, 'fix-foo'), dropped },
    member('t1', 0, 'fix-baz'),
  ];

  it('names a batch by the members still in it, in batch order', () => {
    expect(batchName(members)).toBe('fix-baz + fix-bar');
    expect(batchName([{ ...member('t1', 0, 'x'), dropped }])).toBe('Batch without members');
  });

  it('counts the members, and the dropped apart', () => {
    expect(memberCount(members)).toBe('2 members (1 dropped)');
    expect(memberCount([member('t1', 0, 'x')])).toBe('1 member');
  });
});
