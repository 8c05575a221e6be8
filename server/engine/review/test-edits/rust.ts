/** Rust tests in source files: `#[test]`-like items, `#[cfg(test)]` items and `proptest!`. */

import type { Block, BlockSet } from './blocks';
import { CODE, lex, type Lexed } from './lexer';

// Rust: `#[test]`-like attributes and `#[cfg(…test…)]` (not `cfg(not(test))`), on the item after.
const rustTestAttribute =
  /^\s*(?:[A-Za-z_]\w*\s*::\s*)*(?:test|bench|rstest|test_case|quickcheck|proptest|wasm_bindgen_test|[A-Za-z]\w*_test)\s*(?:$|\()/;

function rustAttributeKind(content: string): 'test' | 'cfg-test' | null {
  const short = content.slice(0, 300).replace(/"(?:[^"\\]|\\.)*"/g, '""');
  if (/^\s*cfg\s*\(/.test(short)) {
    return /\btest\b/.test(short.replace(/\bnot\s*\([^()]*\)/g, '')) ? 'cfg-test' : null;
  }
  return rustTestAttribute.test(short) ? 'test' : null;
}

/** The item after attributes at `from`: where it ends and what it is called. */
function rustItem(
  text: string,
  lexed: Lexed,
  from: number,
): { end: number; name: string; module: boolean } | null {
  const n = text.length;
  let j = from;
  while (j < n) {
    if (lexed.code[j] !== CODE || /\s/.test(text.charAt(j))) j += 1;
    else if (text.startsWith('#[', j) || text.startsWith('#![', j)) {
      const closeAt = lexed.close.get(text.indexOf('[', j));
      if (closeAt === undefined) return null;
      j = closeAt + 1;
    } else break;
  }
  const headerStart = j;
  let end = -1;
  let bodyStart = -1;
  while (j < n && end < 0) {
    const c = text.charAt(j);
    if (lexed.code[j] !== CODE) j += 1;
    else if (c === '(' || c === '[') {
      const closeAt = lexed.close.get(j);
      if (closeAt === undefined) return null;
      j = closeAt + 1;
    } else if (c === '{') {
      const closeAt = lexed.close.get(j);
      if (closeAt === undefined) return null;
      bodyStart = j;
      end = closeAt + 1;
    } else if (c === ';') end = j + 1;
    else if (c === '}' || (c === '#' && text.charAt(j + 1) === '[')) return null;
    else j += 1;
  }
  if (end < 0) return null;
  const header = text
    .slice(headerStart, bodyStart < 0 ? end : bodyStart)
    .replace(/\s+/g, ' ')
    .trim();
  const named = /\b(mod|fn)\s+([A-Za-z_]\w*)/.exec(header);
  const name = named?.[2] ?? header.slice(0, 60);
  return { end, name, module: named?.[1] === 'mod' };
}

export function rustBlocks(text: string): BlockSet {
  const lexed = lex(text, 'rust');
  const blocks: Block[] = [];
  let runStart = -1;
  let runEnd = -1;
  let handledRun = -1;
  for (const match of text.matchAll(/#(!?)\[/g)) {
    const at = match.index;
    if (lexed.code[at] !== CODE) continue;
    const open = at + match[0].length - 1;
    const closeAt = lexed.close.get(open);
    if (closeAt === undefined) continue;
    if (runEnd < 0 || text.slice(runEnd, at).trim() !== '') runStart = at;
    runEnd = closeAt + 1;
    const kind = rustAttributeKind(text.slice(open + 1, closeAt));
    if (kind === null) continue;
    if (match[1] === '!') {
      if (kind === 'cfg-test')
        blocks.push({ start: 0, end: text.length, name: '(file)', label: 'test module' });
      continue;
    }
    if (handledRun === runStart) {
      // `#[cfg(test)] #[test] fn …`: the item is a test.
      const previous = blocks.at(-1);
      if (kind === 'test' && previous !== undefined)
        blocks[blocks.length - 1] = { ...previous, label: 'test' };
      continue;
    }
    handledRun = runStart;
    const item = rustItem(text, lexed, closeAt + 1);
    if (item === null) continue;
    const label = kind === 'test' ? 'test' : item.module ? 'test module' : 'test-only item';
    blocks.push({ start: runStart, end: item.end, name: item.name, label });
  }
  for (const match of text.matchAll(/(?<![\w])proptest!\s*\{/g)) {
    const open = match.index + match[0].length - 1;
    const closeAt = lexed.close.get(open);
    if (lexed.code[match.index] === CODE && closeAt !== undefined) {
      blocks.push({ start: match.index, end: closeAt + 1, name: 'proptest!', label: 'test' });
    }
  }
  return { blocks, separator: '::', qualified: false, code: lexed.code };
}
