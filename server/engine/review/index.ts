export {
  diffFlags,
  isTestPath,
  parseDiff,
  LARGE_FILES,
  LARGE_LINES,
  type DiffFile,
  type DiffFlags,
  type DiffFlagsOptions,
  type DiffLine,
} from './diff-flags';
export { testEditsOf, type FileChange, type TestEdit, type TestEditKind } from './test-edits';
export {
  formatPatchMail,
  PATCH_AUTHOR,
  PATCH_SIGNATURE,
  type PatchMailOptions,
} from './patch-mail';
export {
  buildReviewArtifact,
  sha256Hex,
  verifySha256,
  type ReviewArtifact,
} from './review-artifact';
