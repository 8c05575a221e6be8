import { describe, expect, it } from 'vitest';
import type { BatchMember } from './batch-types';
import { culpritSentence } from './culprits';
import { labelsOf } from './member-labels';

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

describe('culpritSentence', () => {
  it('names a pair that breaks a test together', () => {
    const culprit = { members: ['t2', 't3'], broken: ['tests/test_x.py::test_y'], lost: [] };
    expect(culpritSentence(culprit, labelOf)).toBe(
      '#2 fix-foo and #3 fix-bar together break tests/test_x.py::test_y',
    );
  });

  it('names one member alone, and the fix it undoes', () => {
    const culprit = {
      members: ['t1'],
      broken: ['a', 'b'],
      lost: [{ taskId: 't3', tests: ['tests/test_bar.py::test_bar'] }],
    };
    expect(culpritSentence(culprit, labelOf)).toBe(
      "#1 fix-baz breaks a and b, and undoes #3 fix-bar's fix of tests/test_bar.py::test_bar",
    );
  });

  it('names a group and counts the tests past the first five', () => {
    const culprit = {
      members: ['t1', 't2', 't3'],
      broken: ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
      lost: [
        { taskId: 't1', tests: ['x'] },
        { taskId: 't2', tests: ['y'] },
      ],
    };
    expect(culpritSentence(culprit, labelOf)).toBe(
      "#1 fix-baz, #2 fix-foo and #3 fix-bar together break a, b, c, d, e and 2 more tests, and undo #1 fix-baz's fix of x and #2 fix-foo's fix of y",
    );
  });

  it('still says something when no test is named', () => {
    expect(culpritSentence({ members: ['t2'], broken: [], lost: [] }, labelOf)).toBe(
      '#2 fix-foo breaks the tests',
    );
  });
});
