/** The shapes of what `testEditsOf` reads and reports. */

/** One changed file: its text before and after; null where the file is absent. */
export interface FileChange {
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
}

export type TestEditKind = 'test-file' | 'test-config' | 'test-in-source';

export interface TestEdit {
  readonly path: string;
  readonly kind: TestEditKind;
  /** What changed, in words: "test 'tests::adds' changed in src/lib.rs". */
  readonly what: string;
}
