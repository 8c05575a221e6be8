export {
  diffFlags,
  isTestPath,
  parseDiff,
  LARGE_FILES,
  LARGE_LINES,
  type DiffFile,
  type DiffFlags,
  type DiffLine,
} from './diff-flags';
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
