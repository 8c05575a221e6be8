/** Test blocks in source files, keyed and compared (the part every language shares). */

import { CODE, COMMENT, isIdentifierCode } from './lexer';

export interface Block {
  readonly start: number;
  readonly end: number;
  /** Its own name; qualified with its enclosing blocks' names unless the set says `qualified`. */
  readonly name: string;
  readonly label: string;
  /** Left out of the names of the blocks inside it (`if (import.meta.vitest) { … }`). */
  readonly anonymous?: boolean;
}

export interface Keyed {
  readonly label: string;
  readonly text: string;
  /** The key of the enclosing block, if any. */
  readonly parent: string | null;
}

export interface BlockSet {
  readonly blocks: readonly Block[];
  /** Joins a block's name to its enclosing blocks' names. */
  readonly separator: string;
  /** Names come qualified already (Python's, by enclosing classes and functions). */
  readonly qualified: boolean;
  /**
   * The lexer's view of the text: comments and the layout of code are then insignificant, string
   * contents are not. Without it (Python) lines are compared, without blank and comment lines.
   */
  readonly code?: Uint8Array;
}

const MAX_KEY = 200;

const isSpaceCode = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

/** The text of [from, to) without comments and with code whitespace only between words. */
function squeeze(text: string, code: Uint8Array, from: number, to: number, out: string[]): void {
  let space = false;
  let i = from;
  while (i < to) {
    const kind = code[i];
    if (kind === COMMENT || (kind === CODE && isSpaceCode(text.charCodeAt(i)))) {
      space = true;
      i += 1;
      continue;
    }
    let j = i + 1;
    while (j < to) {
      const k = code[j];
      if (k === COMMENT || (k === CODE && isSpaceCode(text.charCodeAt(j)))) break;
      j += 1;
    }
    const previous = out.at(-1);
    if (
      space &&
      previous !== undefined &&
      isIdentifierCode(previous.charCodeAt(previous.length - 1)) &&
      isIdentifierCode(text.charCodeAt(i))
    ) {
      out.push(' ');
    }
    out.push(text.slice(i, j));
    space = false;
    i = j;
  }
}

const significantLines = (raw: string): string =>
  raw
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
    .join('\n');

/**
 * Each block's text without the blocks nested in it (those are compared on their own), by key.
 * Linear: every character lands in exactly one block's text.
 */
export function keyedBlocks(text: string, set: BlockSet): Map<string, Keyed> {
  const sorted = [...set.blocks].sort((a, b) => a.start - b.start || b.end - a.end);
  const result = new Map<string, Keyed>();
  const seen = new Map<string, number>();
  interface Open {
    readonly block: Block;
    readonly end: number;
    readonly key: string;
    readonly parent: string | null;
    /** What the names of blocks inside it start with. */
    readonly prefix: string | null;
    readonly ranges: [number, number][];
    cursor: number;
  }
  const open: Open[] = [];
  const finish = (): void => {
    const top = open.pop();
    if (top === undefined) return;
    top.ranges.push([top.cursor, top.end]);
    const code = set.code;
    let body: string;
    if (code === undefined) {
      body = significantLines(top.ranges.map(([a, b]) => text.slice(a, b)).join(''));
    } else {
      const out: string[] = [];
      for (const [a, b] of top.ranges) squeeze(text, code, a, b, out);
      body = out.join('');
    }
    result.set(top.key, { label: top.block.label, text: body, parent: top.parent });
  };
  for (const block of sorted) {
    while (open.length > 0 && (open.at(-1)?.end ?? 0) <= block.start) finish();
    const parent = open.at(-1);
    const end = parent === undefined ? block.end : Math.min(block.end, parent.end);
    if (end <= block.start) continue;
    if (parent !== undefined) {
      parent.ranges.push([parent.cursor, block.start]);
      parent.cursor = end;
    }
    const prefix = parent?.prefix ?? null;
    let key =
      set.qualified || prefix === null ? block.name : `${prefix}${set.separator}${block.name}`;
    if (key.length > MAX_KEY) key = `…${key.slice(-MAX_KEY)}`;
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count > 1) key = `${key} #${count}`;
    open.push({
      block,
      end,
      key,
      parent: parent?.key ?? null,
      prefix: block.anonymous === true ? prefix : key,
      ranges: [],
      cursor: block.start,
    });
  }
  while (open.length > 0) finish();
  return result;
}

type BlockVerb = 'added' | 'removed' | 'changed';

export function compareBlocks(
  path: string,
  before: Map<string, Keyed>,
  after: Map<string, Keyed>,
): string[] {
  const edits: { key: string; verb: BlockVerb; label: string; parent: string | null }[] = [];
  for (const [key, now] of after) {
    const was = before.get(key);
    if (was === undefined) edits.push({ key, verb: 'added', label: now.label, parent: now.parent });
    else if (was.text !== now.text) edits.push({ key, verb: 'changed', ...now });
  }
  for (const [key, was] of before) {
    if (!after.has(key)) edits.push({ key, verb: 'removed', label: was.label, parent: was.parent });
  }
  // A module added or removed whole says it for the tests inside it.
  const whole = new Set(edits.filter((e) => e.verb !== 'changed').map((e) => `${e.verb}:${e.key}`));
  const insideWhole = (edit: (typeof edits)[number]): boolean => {
    const side = edit.verb === 'added' ? after : before;
    let parent = edit.parent;
    for (let depth = 0; parent !== null && depth < 64; depth += 1) {
      if (whole.has(`${edit.verb}:${parent}`)) return true;
      parent = side.get(parent)?.parent ?? null;
    }
    return false;
  };
  return edits
    .filter((edit) => edit.verb === 'changed' || !insideWhole(edit))
    .map((edit) => `${edit.label} '${edit.key}' ${edit.verb} in ${path}`);
}
