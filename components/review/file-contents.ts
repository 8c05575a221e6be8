import { applyPatch, parsePatch, reversePatch } from 'diff';
import type { PatchFile } from './patch-files';

export interface FilePair {
  readonly original: string;
  readonly modified: string;
}

/**
 * Both sides of one file of the diff, for Monaco's diff editor. A hunk holds only a few lines of
 * context, so one side comes from the workspace (`content`: the file at the newest checkpoint,
 * null when it does not exist there) and the other is rebuilt by applying the file's diff to it,
 * in reverse when the checkpoint is the fix (under review), forwards when it is the baseline
 * again (after a rollback). Null when neither applies cleanly or the file is binary.
 */
export function filePair(file: PatchFile, content: string | null): FilePair | null {
  if (file.binary) return null;
  const [patch] = parsePatch(file.text);
  if (patch === undefined || patch.hunks.length === 0) {
    // A rename or mode change without edits: both sides are the same text.
    return content === null ? null : { original: content, modified: content };
  }
  if (file.status === 'added') {
    const modified = content ?? applyPatch('', patch);
    return modified === false ? null : { original: '', modified };
  }
  if (file.status === 'deleted') {
    const original = applyPatch('', reversePatch(patch));
    return original === false ? null : { original, modified: '' };
  }
  if (content === null) return null;
  const reversed = applyPatch(content, reversePatch(patch));
  if (reversed !== false) return { original: reversed, modified: content };
  const forward = applyPatch(content, patch);
  if (forward !== false) return { original: content, modified: forward };
  return null;
}
