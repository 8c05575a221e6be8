/** JS/TS tests in source files: `describe`/`it`/`test` calls and `import.meta.vitest` blocks. */

import type { Block, BlockSet } from './blocks';
import { CODE, lex, skipSpace, STRING, type Lexed } from './lexer';

// JS/TS: `describe`/`it`/`test` calls (with `.each`, `.only`, `.skip`, … and x/f prefixes).
const jsCallee = /(?<![\w$.])(?:[xf]?(?:describe|it|test)|suite|specify)(?![\w$])/g;
const jsCallModifiers = new Set(['each', 'for', 'skipIf', 'runIf']);
const jsSuites = /^[xf]?(?:describe|suite)$/;

function jsTestCall(text: string, lexed: Lexed, at: number, callee: string): Block | null {
  const before = text.slice(Math.max(0, at - 12), at);
  if (/function\s*\*?\s*$/.test(before)) return null;
  let j = at + callee.length;
  const modifiers: string[] = [];
  for (let guard = 0; guard < 6; guard += 1) {
    j = skipSpace(text, j);
    const modifier = /^\.\s*([A-Za-z_$][\w$]*)/.exec(text.slice(j, j + 40));
    if (modifier === null) break;
    modifiers.push(modifier[1] ?? '');
    j += modifier[0].length;
    if (jsCallModifiers.has(modifier[1] ?? '')) {
      j = skipSpace(text, j);
      const closeAt = lexed.close.get(j);
      if (closeAt === undefined) return null;
      j = closeAt + 1;
      break;
    }
  }
  j = skipSpace(text, j);
  if (text.charAt(j) !== '(') return null;
  const end = lexed.close.get(j);
  if (end === undefined) return null;
  // The first argument is the test's name: a string, a template or an identifier.
  const k = skipSpace(text, j + 1);
  const quote = text.charAt(k);
  let name: string;
  let after: number;
  if (quote === "'" || quote === '"') {
    after = k + 1;
    while (after < end && lexed.code[after] === STRING) after += 1;
    name = text.slice(k + 1, after - 1);
  } else if (quote === '`') {
    const closeAt = lexed.close.get(k);
    if (closeAt === undefined) return null;
    name = text.slice(k + 1, closeAt);
    after = closeAt + 1;
  } else {
    const identifier = /^[A-Za-z_$][\w$.]*/.exec(text.slice(k, k + 100));
    if (identifier === null) return null;
    name = identifier[0];
    after = k + name.length;
  }
  const comma = skipSpace(text, after);
  if (!modifiers.includes('todo')) {
    // …and the second a function (or Vitest's options object): not a call of some `test(a, b)`.
    if (text.charAt(comma) !== ',') return null;
    const second = text.slice(skipSpace(text, comma + 1), skipSpace(text, comma + 1) + 60);
    if (!/^(?:async\b|function\b|\(|\{|[A-Za-z_$][\w$]*\s*=>)/.test(second)) return null;
  }
  if (text.charAt(skipSpace(text, end + 1)) === '{') return null; // a method named `test(a, b) {`
  const label = jsSuites.test(callee) ? 'test suite' : 'test';
  return { start: at, end: end + 1, name: name.replace(/\s+/g, ' ').slice(0, 80), label };
}

/**
 * `byName`: the file is one a runner collects, where `describe`/`it`/`test` calls are tests.
 * Elsewhere they are a library's own functions; only `import.meta.vitest` blocks (vitest's
 * in-source tests) and the calls inside them are tests there.
 */
export function jsBlocks(text: string, byName = true): BlockSet {
  const lexed = lex(text, 'js');
  const vitest: Block[] = [];
  for (const match of text.matchAll(/\bif\s*\(\s*import\.meta\.vitest\s*\)\s*\{/g)) {
    const closeAt = lexed.close.get(match.index + match[0].length - 1);
    if (lexed.code[match.index] === CODE && closeAt !== undefined) {
      vitest.push({
        start: match.index,
        end: closeAt + 1,
        name: 'import.meta.vitest',
        label: 'in-source test block',
        anonymous: true,
      });
    }
  }
  const calls: Block[] = [];
  for (const match of text.matchAll(jsCallee)) {
    if (lexed.code[match.index] !== CODE) continue;
    if (!byName && !vitest.some((b) => match.index > b.start && match.index < b.end)) continue;
    const block = jsTestCall(text, lexed, match.index, match[0]);
    if (block !== null) calls.push(block);
  }
  return { blocks: [...calls, ...vitest], separator: ' > ', qualified: false, code: lexed.code };
}
