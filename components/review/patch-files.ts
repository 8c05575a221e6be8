/**
 * Turns the patch under review (a `git format-patch` mail) into one unified diff per file, for
 * diff2html to render one file at a time, with a size cap: a large diff is shown as a summary and
 * each file is rendered only when asked, so the tab never freezes on thousands of lines.
 */

// The parser is pure and shared with the engine's review flags; this door carries nothing else.
import { diffSections, unquotePath } from '@/server/engine/diff';

export interface PatchFile {
  /** Position in the patch; also the anchor of the file in the page. */
  readonly index: number;
  readonly oldPath: string | null;
  readonly newPath: string | null;
  /** The name to show: the new path, or the old one for a deletion. */
  readonly path: string;
  readonly status: 'modified' | 'added' | 'deleted' | 'renamed' | 'copied';
  readonly binary: boolean;
  readonly additions: number;
  readonly deletions: number;
  /** This file's part of the diff: its `diff --git` line up to the end of its last hunk. */
  readonly text: string;
}

export interface PatchPlan {
  readonly files: readonly PatchFile[];
  readonly changedLines: number;
  /** Over the cap: show the summary, render a file when the reviewer opens it. */
  readonly summaryOnly: boolean;
}

/** Changed lines (added + removed) above which the diff is summarised first. */
export const previewLineCap = 3000;

export function planPatch(patch: string, cap = previewLineCap): PatchPlan {
  const files = splitPatch(patch);
  const changedLines = files.reduce((sum, file) => sum + file.additions + file.deletions, 0);
  return { files, changedLines, summaryOnly: changedLines > cap };
}

/**
 * One entry per `diff --git` section, read by the engine's parser: hunks by their line counts, so a
 * removed line that reads `--- x` or `diff --git` is never taken for a header, and the mail's
 * signature (`-- ` and git's version) is left out.
 */
export function splitPatch(patch: string): PatchFile[] {
  const lines = patch.split('\n');
  return diffSections(patch)
    .filter((section) => section.git)
    .map(({ file, start, end }, index) => {
      const text = lines.slice(start, end);
      // A blank line closes a binary patch; the text ends at the last line that belongs to it.
      while (text.length > 1 && text.at(-1) === '') text.pop();
      return {
        index,
        oldPath: file.oldPath,
        newPath: file.newPath,
        path: file.newPath ?? file.oldPath ?? '',
        status: file.status,
        binary: file.binary,
        additions: file.additions,
        deletions: file.deletions,
        text: `${text.join('\n')}\n`,
      };
    });
}

/** Undoes git's C quoting of a path (`"caf\303\251.txt"`). */
export const unquote = unquotePath;
