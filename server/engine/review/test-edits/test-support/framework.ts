/** Shared by the framework-reach tests: which rules fire on a change, from whole files and from a diff. */

import { createTwoFilesPatch } from 'diff';
import { diffFlags } from '../../diff-flags';
import type { Collection } from '../collection';
import { testEditsOf, type TestEdit } from '../index';

const framework = (edits: readonly TestEdit[] | undefined): TestEdit[] =>
  (edits ?? []).filter((e) => e.kind === 'test-framework');

/** A git diff of one file from `before` to `after` (null: absent), three lines of context. */
export function gitDiff(path: string, before: string | null, after: string | null): string {
  const patch = createTwoFilesPatch(
    before === null ? '/dev/null' : `a/${path}`,
    after === null ? '/dev/null' : `b/${path}`,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { context: 3 },
  );
  const body = patch.slice(patch.indexOf('\n---') + 1);
  const mode =
    before === null ? 'new file mode 100644\n' : after === null ? 'deleted file mode 100644\n' : '';
  return `diff --git a/${path} b/${path}\n${mode}${body}`;
}

/** The framework edits of one change from its whole texts (the runners' defaults without `collection`). */
export const reachEdits = (
  path: string,
  before: string | null,
  after: string | null,
  collection?: Collection,
) => framework(testEditsOf([{ path, before, after }], collection));

/** The framework edits of one change as the review page reads it: from the diff alone. */
export const hunkReachEdits = (path: string, before: string | null, after: string | null) =>
  framework(diffFlags(gitDiff(path, before, after)).testEdits);

/**
 * The ids of the rules that fired, both ways; they must agree. A diff carries no configuration
 * and takes test names as tests anywhere: `collection` says where the whole-file reading should.
 */
export function rulesFired(
  path: string,
  before: string | null,
  after: string | null,
  collection?: Collection,
): string[] {
  const whole = reachEdits(path, before, after, collection).map((e) => e.rule ?? '');
  const hunks = hunkReachEdits(path, before, after).map((e) => e.rule ?? '');
  if (whole.join() !== hunks.join()) {
    throw new Error(`whole files fired [${whole.join()}] but the diff fired [${hunks.join()}]`);
  }
  return whole;
}
