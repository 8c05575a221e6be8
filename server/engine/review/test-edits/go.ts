/** Go: test functions in ordinary source files, and build constraints that keep files out. */

import type { Block, BlockSet } from './blocks';
import { CODE, lex } from './lexer';
import { multisetDiff } from './text';

// Go: `func TestXxx(…)` outside `_test.go` files.
export function goBlocks(text: string): BlockSet {
  const lexed = lex(text, 'go');
  const blocks: Block[] = [];
  for (const match of text.matchAll(/(?<![\w.])func\s+(Test(?![a-z])\w*)\s*\(/g)) {
    if (lexed.code[match.index] !== CODE) continue;
    const params = lexed.close.get(match.index + match[0].length - 1);
    if (params === undefined) continue;
    const body = text.indexOf('{', params);
    const closeAt = body < 0 || body - params > 200 ? undefined : lexed.close.get(body);
    if (closeAt === undefined) continue;
    blocks.push({ start: match.index, end: closeAt + 1, name: match[1] ?? '', label: 'test' });
  }
  return { blocks, separator: '.', qualified: false, code: lexed.code };
}

export const goConstraint = /^\s*\/\/(?:go:build\b| \+build\b)/;

/** Build constraints added or removed in a Go file that exists on both sides. */
export function goConstraintWhats(path: string, before: string, after: string): string[] {
  const constraints = (text: string): string[] =>
    text
      .split('\n')
      .filter((line) => goConstraint.test(line))
      .map((line) => line.trim().replace(/\s+/g, ' '));
  const { removed, added } = multisetDiff(constraints(before), constraints(after));
  return [
    ...added.map((line) => `build constraint '${line}' added in ${path}`),
    ...removed.map((line) => `build constraint '${line}' removed in ${path}`),
  ];
}
