/** Test edits from whole files: each change's text before and after. */

import type { Collection } from './collection';
import { defaultCollection } from './collection-of';
import { frameworkReachOf } from './framework-reach';
import { inSourceWhats, testBlockSpans, type TestScope } from './in-source';
import { configWhats } from './test-config';
import { isTestPath } from './test-paths';
import { fileVerb } from './text';
import type { FileChange, TestEdit } from './types';

/** Whether either side of a file the runner collects holds a test (one it would run). */
function holdsTests(path: string, before: string | null, after: string | null, scope: TestScope) {
  return [before, after].some(
    (text) => text !== null && testBlockSpans(path, text, scope).length > 0,
  );
}

/**
 * The test edits among a hypothesis's changes, in the order of the changes. Never throws.
 * `collection` says which files the project's runners collect (see `collectionOf`); without it,
 * their defaults.
 */
export function testEditsOf(
  changes: readonly FileChange[],
  collection: Collection = defaultCollection,
): readonly TestEdit[] {
  const edits: TestEdit[] = [];
  for (const { path, before, after } of changes) {
    if (before === after) continue;
    const config = configWhats(path, before, after);
    if (config.length > 0) {
      for (const what of config) edits.push({ path, kind: 'test-config', what });
      continue;
    }
    if (isTestPath(path)) {
      edits.push({ path, kind: 'test-file', what: `${path} ${fileVerb(before, after)}` });
      continue;
    }
    const collected = collection.collected(path);
    const scope: TestScope = { byName: collected.mode !== 'none', python: collection.python };
    if (collected.mode === 'test-file' && holdsTests(path, before, after, scope)) {
      // Picked by its own name (`check_*.py`): a test file of this project, helpers and all.
      const what = `${path} ${fileVerb(before, after)} (${collected.why})`;
      edits.push({ path, kind: 'test-file', what });
      continue;
    }
    for (const what of inSourceWhats(path, before, after, scope)) {
      edits.push({ path, kind: 'test-in-source', what });
    }
    edits.push(...frameworkReachOf(path, before, after, scope));
  }
  return edits;
}
