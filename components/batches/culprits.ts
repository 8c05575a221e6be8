import type { BatchCulprit } from './batch-types';
import { andList, type LabelOf } from './member-labels';

/** Tests named in a sentence before the rest is counted ("and 3 more tests"). */
export const testsNamed = 5;

function testList(tests: readonly string[]): string {
  if (tests.length <= testsNamed) return andList(tests);
  const more = tests.length - testsNamed;
  return andList([...tests.slice(0, testsNamed), `${more} more test${more === 1 ? '' : 's'}`]);
}

/**
 * What the bisection found, in words: "#2 fix-foo and #3 fix-bar together break
 * tests/test_x.py::test_y", "#1 fix-baz breaks …, and undoes #3 fix-bar's fix of …".
 */
export function culpritSentence(culprit: BatchCulprit, labelOf: LabelOf): string {
  const together = culprit.members.length > 1;
  const who = andList(culprit.members.map(labelOf));
  const clauses: string[] = [];
  if (culprit.broken.length > 0) {
    clauses.push(`${together ? 'break' : 'breaks'} ${testList(culprit.broken)}`);
  }
  const undone = culprit.lost
    .filter((lost) => lost.tests.length > 0)
    .map((lost) => `${labelOf(lost.taskId)}'s fix of ${testList(lost.tests)}`);
  if (undone.length > 0) clauses.push(`${together ? 'undo' : 'undoes'} ${andList(undone)}`);
  // A culprit always breaks something; without the tests named, say that much.
  if (clauses.length === 0) clauses.push(together ? 'break the tests' : 'breaks the tests');
  // A comma before the second clause: the test lists hold "and"s of their own.
  return `${who}${together ? ' together' : ''} ${clauses.join(', and ')}`;
}
