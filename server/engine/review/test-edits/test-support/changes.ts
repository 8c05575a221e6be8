/** Shared by the test-edits tests: changes built from lines, and what `testEditsOf` says of them. */

import { testEditsOf, type FileChange, type TestEdit } from '../index';

export const lines = (...text: string[]): string => `${text.join('\n')}\n`;
export const change = (path: string, before: string | null, after: string | null): FileChange => ({
  path,
  before,
  after,
});
export const edits = (...changes: FileChange[]): readonly TestEdit[] => testEditsOf(changes);
export const whats = (...changes: FileChange[]): string[] => edits(...changes).map((e) => e.what);
