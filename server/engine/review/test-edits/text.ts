/** Small helpers over file texts and lists of lines, shared by the whole-file and diff readers. */

/** Git's rule: a NUL in the first 8000 bytes. Where this says binary, so does the diff. */
export function isBinary(text: string): boolean {
  const head = text.slice(0, 8000);
  const nul = head.indexOf('\0');
  return nul >= 0 && Buffer.byteLength(head.slice(0, nul), 'utf8') < 8000;
}

export type FileVerb = 'added' | 'deleted' | 'changed';

export const fileVerb = (before: string | null, after: string | null): FileVerb =>
  before === null ? 'added' : after === null ? 'deleted' : 'changed';

/** Multiset difference of two lists of strings. */
export function multisetDiff(
  before: readonly string[],
  after: readonly string[],
): { removed: string[]; added: string[] } {
  const counts = new Map<string, number>();
  for (const item of before) counts.set(item, (counts.get(item) ?? 0) + 1);
  const added: string[] = [];
  for (const item of after) {
    const left = counts.get(item) ?? 0;
    if (left > 0) counts.set(item, left - 1);
    else added.push(item);
  }
  const removed: string[] = [];
  for (const item of before) {
    const left = counts.get(item) ?? 0;
    if (left > 0) {
      counts.set(item, left - 1);
      removed.push(item);
    }
  }
  return { removed, added };
}

const linesOf = (text: string | null): string[] => (text === null ? [] : text.split('\n'));

/** Lines of `after` that `before` does not have (as a multiset), trimmed. */
export function addedLines(before: string | null, after: string | null): string[] {
  const trim = (lines: string[]): string[] => lines.map((line) => line.trim());
  return multisetDiff(trim(linesOf(before)), trim(linesOf(after))).added;
}

export function indentOf(line: string): number {
  let width = 0;
  for (const c of line) {
    if (c === ' ') width += 1;
    else if (c === '\t') width += 8 - (width % 8);
    else break;
  }
  return width;
}
