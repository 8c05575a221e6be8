/** The shapes of what `testEditsOf` reads and reports. */

/** One changed file: its text before and after; null where the file is absent. */
export interface FileChange {
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
}

/**
 * `test-framework`: an ordinary source file's added lines reach into the test framework (one of
 * `frameworkRules`; `rule` names which).
 */
export type TestEditKind = 'test-file' | 'test-config' | 'test-in-source' | 'test-framework';

export interface TestEdit {
  readonly path: string;
  readonly kind: TestEditKind;
  /** What changed, in words: "test 'tests::adds' changed in src/lib.rs". */
  readonly what: string;
  /** For `test-framework`: the id of the rule that fired, and the first line it fired on. */
  readonly rule?: string;
  readonly line?: number;
}
