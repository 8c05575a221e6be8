/**
 * The diff under review as files of numbered lines, for the files view: the engine's parser (the
 * same one the server anchors threads with), and which side of a file a line belongs to.
 */
import { diffSections, type DiffFile, type DiffLine } from '@/server/engine/diff';
import type { ThreadSide } from '../../trpc/router-types';

export type { DiffLine };

export interface ReviewFile extends DiffFile {
  /** Position in the patch (the same index as the overview's `PatchFile`). */
  readonly index: number;
  /** The name to show: the new path, or the old one for a deletion. */
  readonly path: string;
}

/** One entry per `diff --git` section of the patch (the mail's header and signature left out). */
export function reviewFiles(patch: string): ReviewFile[] {
  return diffSections(patch)
    .filter((section) => section.git)
    .map(({ file }, index) => ({ ...file, index, path: file.newPath ?? file.oldPath ?? '' }));
}

/**
 * The side a click on this line selects: a removed line is the old side (baseline numbers); an
 * added or context line the new side (the changed file's numbers).
 */
export const sideOf = (line: DiffLine): ThreadSide => (line.kind === '-' ? 'old' : 'new');

/** The line's number on `side`, or null when the line is not on that side. */
export function numberOn(line: DiffLine, side: ThreadSide): number | null {
  if (side === 'new') return line.kind === '-' ? null : line.newLine;
  return line.kind === '+' ? null : line.oldLine;
}

/** The file's path on `side`, as threads on that side name it (null: no such side). */
export const pathOn = (file: DiffFile, side: ThreadSide): string | null =>
  side === 'new' ? file.newPath : file.oldPath;

/** `@@ -15 +15 @@ def mean(values):`: where a hunk starts on each side, and git's context. */
export function hunkHeader(file: DiffFile, hunk: number): string {
  const lines = file.lines.filter((line) => line.hunk === hunk);
  const oldStart = lines.find((line) => line.kind !== '+')?.oldLine ?? 0;
  const newStart = lines.find((line) => line.kind !== '-')?.newLine ?? 0;
  const context = file.hunkContexts[hunk] ?? '';
  return `@@ -${oldStart} +${newStart} @@${context === '' ? '' : ` ${context}`}`;
}
