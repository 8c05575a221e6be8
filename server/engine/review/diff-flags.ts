/**
 * Structural facts about a diff that a reviewer must not miss, computed from the diff text alone.
 * (Implementation: see diffFlags below.)
 */
export interface DiffFlags {
  /** Files changed, lines added and removed, bytes of the diff. */
  readonly files: number;
  readonly additions: number;
  readonly deletions: number;
  readonly bytes: number;
  /** Test files (by path convention) the diff adds, changes or deletes. */
  readonly testFiles: readonly string[];
  /** Test files deleted outright, and test cases removed from files that remain. */
  readonly deletedTests: readonly { readonly path: string; readonly what: string }[];
  /** `old mode`/`new mode` changes, executable bit in particular. */
  readonly modeChanges: readonly { readonly path: string; readonly from: string; readonly to: string }[];
  readonly binaryFiles: readonly string[];
  readonly symlinks: readonly string[];
  /** Added lines that hold bidirectional-override or other invisible control characters. */
  readonly hiddenCharacters: readonly { readonly path: string; readonly line: number; readonly codePoints: readonly string[] }[];
  /** Over the size a reviewer can read in one sitting (many files or lines). */
  readonly large: boolean;
}
