import type { Tx } from '../db/transaction';
import { anchoredText } from '../engine/review';
import { AppError } from '../errors/app-error';
import type { LineRange } from './review-api';

/** The stored diff's text (the `git format-patch` mail the reviewer saw). */
export async function diffText(tx: Tx, sha256: string): Promise<string> {
  const diff = await tx.diff.findUnique({ where: { sha256 }, select: { bytes: true } });
  if (diff === null) throw new AppError('NOT_FOUND', `no diff ${sha256}`);
  return Buffer.from(diff.bytes).toString('utf8');
}

export const rangeLabel = (r: LineRange): string =>
  `${r.path}:${r.startLine === r.endLine ? r.startLine : `${r.startLine}-${r.endLine}`} (${r.side})`;

/**
 * The code lines a comment on `range` is anchored to, read from the diff: every line of the range
 * must be one the diff shows on that side, or the comment is refused (nothing to anchor to).
 */
export function anchorOf(diff: string, range: LineRange): readonly string[] {
  if (!(Number.isInteger(range.startLine) && range.startLine >= 1)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `startLine must be a line number from 1, got ${range.startLine}`,
    );
  }
  if (!(Number.isInteger(range.endLine) && range.endLine >= range.startLine)) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `endLine must be a line number from startLine (${range.startLine}), got ${range.endLine}`,
    );
  }
  if (range.endLine - range.startLine >= 500) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `a comment covers at most 500 lines, not ${rangeLabel(range)}`,
    );
  }
  const lines = anchoredText(diff, range.path, range.side, range.startLine, range.endLine);
  if (lines === null) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `${rangeLabel(range)} is not in the diff: comment on lines the diff shows on that side`,
      { details: { ...range } },
    );
  }
  return lines;
}
