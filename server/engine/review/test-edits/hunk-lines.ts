/** A diff's hunks as `parseDiff` reads them, and what encloses a changed line as far as they show. */

import { indentOf } from './text';

/** One file's section of a diff, as `parseDiff` reads it (structurally: a `DiffFile`). */
export interface HunkFile {
  readonly oldPath: string | null;
  readonly newPath: string | null;
  readonly status: 'added' | 'deleted' | 'modified' | 'renamed' | 'copied';
  readonly binary: boolean;
  readonly lines: readonly {
    readonly kind: ' ' | '-' | '+';
    readonly text: string;
    readonly hunk: number;
    /** The line's number in the new file, where the reader has it (`DiffLine` does). */
    readonly newLine?: number;
  }[];
  /** The text after each hunk header's `@@ … @@`: git's guess at the enclosing function. */
  readonly hunkContexts?: readonly string[];
}

export type HunkLine = HunkFile['lines'][number];

export const hunkVerb = (file: HunkFile): string =>
  file.status === 'added'
    ? 'added'
    : file.status === 'deleted'
      ? 'deleted'
      : file.status === 'renamed' && file.oldPath !== null
        ? `renamed from ${file.oldPath}`
        : 'changed';

/**
 * Lines before `index` in its hunk (up to ENCLOSING_WALK back), nearest first, on the same side as
 * the line at `index`.
 */
export function* linesAbove(lines: readonly HunkLine[], index: number): Generator<HunkLine> {
  const line = lines[index];
  if (line === undefined) return;
  for (let j = index - 1; j >= 0 && j >= index - ENCLOSING_WALK; j -= 1) {
    const above = lines[j];
    if (above === undefined || above.hunk !== line.hunk) return;
    if (above.kind === ' ' || above.kind === line.kind) yield above;
  }
}

const closingOnly = /^[\s)\]}>;,]*$/;
// How far back a line looks for what encloses it: keeps a long hunk linear.
const ENCLOSING_WALK = 400;

/**
 * The lines that enclose the line at `index` by indentation, nearest first, each with the lines
 * just above it (attributes, decorators); `resolved` when a line at indentation 0 was reached.
 */
export function enclosing(
  lines: readonly HunkLine[],
  index: number,
): { chain: { line: string; above: string[] }[]; resolved: boolean } {
  const own = lines[index];
  const chain: { line: string; above: string[] }[] = [];
  if (own === undefined) return { chain, resolved: false };
  let threshold = indentOf(own.text);
  if (threshold === 0) return { chain, resolved: true };
  const sameSide = (line: HunkLine | undefined): line is HunkLine =>
    line !== undefined && line.hunk === own.hunk && (line.kind === ' ' || line.kind === own.kind);
  for (let j = index - 1; j >= 0 && j >= index - ENCLOSING_WALK; j -= 1) {
    const line = lines[j];
    if (line === undefined || line.hunk !== own.hunk) break;
    if (!sameSide(line) || line.text.trim() === '' || closingOnly.test(line.text)) continue;
    const indent = indentOf(line.text);
    if (indent >= threshold) continue;
    const attributes: string[] = [];
    for (let k = j - 1; k >= 0 && attributes.length < 8; k -= 1) {
      const next = lines[k];
      if (next === undefined || next.hunk !== own.hunk) break;
      if (!sameSide(next)) continue;
      if (indentOf(next.text) !== indent || !/^\s*(?:#\[|@|\/\/|#)/.test(next.text)) break;
      attributes.push(next.text);
    }
    chain.push({ line: line.text, above: attributes });
    threshold = indent;
    if (indent === 0) return { chain, resolved: true };
  }
  return { chain, resolved: false };
}
