/** Shared by the test-edits tests: changes built from lines, and what `testEditsOf` says of them. */

import type { Collection } from '../collection';
import { collectionFrom } from '../collection-of';
import { testEditsOf, type FileChange, type TestEdit } from '../index';

export const lines = (...text: string[]): string => `${text.join('\n')}\n`;
export const change = (path: string, before: string | null, after: string | null): FileChange => ({
  path,
  before,
  after,
});
export const edits = (...changes: FileChange[]): readonly TestEdit[] => testEditsOf(changes);
export const whats = (...changes: FileChange[]): string[] => edits(...changes).map((e) => e.what);

/** The collection of a project with these configuration files, run by this command. */
export const collectionWith = (
  files: Readonly<Record<string, string>>,
  testCommand?: readonly string[],
): Collection => collectionFrom((path) => files[path] ?? null, testCommand);

/** A project whose pytest collects every module (`python_files = *.py`): tests sit beside code. */
export const pytestInModules = collectionWith({ 'pytest.ini': '[pytest]\npython_files = *.py\n' });

export const whatsIn = (collection: Collection, ...changes: FileChange[]): string[] =>
  testEditsOf(changes, collection).map((e) => e.what);
