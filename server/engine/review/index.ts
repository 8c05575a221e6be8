export {
  diffFlags,
  isTestPath,
  LARGE_FILES,
  LARGE_LINES,
  type DiffFlags,
  type DiffFlagsOptions,
} from './diff-flags';
export {
  diffSections,
  parseDiff,
  unquotePath,
  type DiffFile,
  type DiffLine,
  type DiffSection,
} from './git-diff';
export {
  anchoredText,
  reanchor,
  visibleLines,
  type Reanchored,
  type ThreadAnchor,
  type ThreadSide,
  type VisibleLine,
} from './reanchor';
export {
  frameworkRules,
  testEditorsOf,
  testEditsOf,
  type FileChange,
  type FrameworkRule,
  type TestEdit,
  type TestEditKind,
} from './test-edits';
export {
  cleanBody,
  cleanSubject,
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
