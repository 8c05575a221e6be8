/** Which hypotheses edit tests or reach into the test framework, and why, in words. */

import { collectionOf } from './collection-of';
import { testEditsOf } from './test-edits-of';
import type { FileChange, TestEdit } from './types';

/** A hypothesis as far as this reads it (structurally the shadow runner's `Hypothesis`). */
export interface ChangeSet {
  readonly name: string;
  readonly edits: readonly { readonly path: string; readonly content: string }[];
  readonly delete: readonly string[];
}

/**
 * The reason a hypothesis with these test edits cannot win where the task does not allow test
 * edits; null when it has none. Names each edit, and for the test framework the rule that fired.
 */
export function demotionReason(edits: readonly TestEdit[]): string | null {
  if (edits.length === 0) return null;
  const reaches = edits.some((e) => e.kind === 'test-framework');
  const edited = edits.some((e) => e.kind !== 'test-framework');
  const does = [edited ? 'edits tests' : null, reaches ? 'reaches into the test framework' : null]
    .filter((s) => s !== null)
    .join(' and ');
  return `it ${does}, which this task does not allow (${edits.map((e) => e.what).join('; ')})`;
}

/**
 * Hypotheses that edit tests (test files, test configuration, tests inside source files) or
 * reach into the test framework from ordinary code, by name, with the reason. `before` reads a
 * file as the hypotheses' base has it (null where it is absent); the runners' configuration
 * files are read through it too, and `testCommand` (the task's argv) says which runner runs and
 * on what: together they say which files hold tests (see `collectionOf`).
 */
export async function testEditorsOf(
  hypotheses: readonly ChangeSet[],
  before: (path: string) => Promise<string | null>,
  testCommand?: readonly string[],
): Promise<Map<string, string>> {
  const demote = new Map<string, string>();
  const paths = hypotheses.flatMap((h) => [...h.edits.map((e) => e.path), ...h.delete]);
  const collection = await collectionOf(before, testCommand, paths);
  for (const h of hypotheses) {
    const changes: FileChange[] = [
      ...(await Promise.all(
        h.edits.map(async (e) => ({
          path: e.path,
          before: await before(e.path),
          after: e.content,
        })),
      )),
      ...(await Promise.all(
        h.delete.map(async (path) => ({ path, before: await before(path), after: null })),
      )),
    ];
    const reason = demotionReason(testEditsOf(changes, collection));
    if (reason !== null) demote.set(h.name, reason);
  }
  return demote;
}
