/**
 * The engine's door for the browser: the git-diff parser and the review threads' re-anchoring, with
 * nothing that needs node (`review/index.ts` also carries the patch mail and the review artifact,
 * which use `Buffer` and `node:crypto`). Everything here must stay importable from a client
 * component.
 */
export {
  diffSections,
  parseDiff,
  unquotePath,
  type DiffFile,
  type DiffLine,
  type DiffSection,
} from './review/git-diff';
export {
  anchoredText,
  reanchor,
  visibleLines,
  type Reanchored,
  type ThreadAnchor,
  type ThreadSide,
  type VisibleLine,
} from './review/reanchor';
