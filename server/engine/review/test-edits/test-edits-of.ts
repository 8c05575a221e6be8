/** Test edits from whole files: each change's text before and after. */

import { frameworkReachOf } from './framework-reach';
import { inSourceWhats } from './in-source';
import { configWhats } from './test-config';
import { isTestPath } from './test-paths';
import { fileVerb } from './text';
import type { FileChange, TestEdit } from './types';

/** The test edits among a hypothesis's changes, in the order of the changes. Never throws. */
export function testEditsOf(changes: readonly FileChange[]): readonly TestEdit[] {
  const edits: TestEdit[] = [];
  for (const { path, before, after } of changes) {
    if (before === after) continue;
    const config = configWhats(path, before, after);
    if (config.length > 0) {
      for (const what of config) edits.push({ path, kind: 'test-config', what });
    } else if (isTestPath(path)) {
      edits.push({ path, kind: 'test-file', what: `${path} ${fileVerb(before, after)}` });
    } else {
      for (const what of inSourceWhats(path, before, after)) {
        edits.push({ path, kind: 'test-in-source', what });
      }
      edits.push(...frameworkReachOf(path, before, after));
    }
  }
  return edits;
}
