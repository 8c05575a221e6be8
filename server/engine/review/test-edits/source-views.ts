/**
 * Views of a source text for line rules: the same characters at the same offsets, with comments
 * or strings blanked, so a rule can ask for code tokens (not a word in a docstring), for string
 * contents (a report path) or for the text without comments (an import specifier).
 */

import { COMMENT, CODE, lex, STRING, type Syntax } from './lexer';

export interface SourceViews {
  /** The text itself. */
  readonly raw: string;
  /** Comments blanked; strings kept. */
  readonly text: string;
  /** Comments and string contents blanked: code tokens only. */
  readonly code: string;
  /** Only what is inside string literals; everything else blanked. */
  readonly strings: string;
}

const SPACE = 32;
const NEWLINE = 10;
const utf16 = new TextDecoder('utf-16le');

/** `raw` with every code unit whose kind `keep` refuses blanked (newlines stay: lines line up). */
function masked(raw: string, kinds: Uint8Array, keep: (kind: number) => boolean): string {
  const units = new Uint16Array(raw.length);
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw.charCodeAt(i);
    units[i] = keep(kinds[i] ?? CODE) || c === NEWLINE ? c : SPACE;
  }
  return utf16.decode(units);
}

function viewsOf(raw: string, kinds: Uint8Array): SourceViews {
  return {
    raw,
    text: masked(raw, kinds, (kind) => kind !== COMMENT),
    code: masked(raw, kinds, (kind) => kind === CODE),
    strings: masked(raw, kinds, (kind) => kind === STRING),
  };
}

/**
 * Python: `#` comments, quoted and triple-quoted strings. A triple-quoted string that starts its
 * line is a docstring (or a bare expression): prose, read as a comment.
 */
function pythonKinds(raw: string): Uint8Array {
  const kinds = new Uint8Array(raw.length).fill(CODE);
  let i = 0;
  while (i < raw.length) {
    const c = raw.charAt(i);
    if (c === '#') {
      const end = raw.indexOf('\n', i);
      const stop = end < 0 ? raw.length : end;
      kinds.fill(COMMENT, i, stop);
      i = stop;
    } else if (c === '"' || c === "'") {
      const triple = c.repeat(3);
      let j: number;
      let kind = STRING;
      if (raw.startsWith(triple, i)) {
        const end = raw.indexOf(triple, i + 3);
        j = end < 0 ? raw.length : end + 3;
        const lineStart = raw.lastIndexOf('\n', i - 1) + 1;
        if (raw.slice(lineStart, i).trim() === '') kind = COMMENT;
      } else {
        j = i + 1;
        while (j < raw.length && raw.charAt(j) !== c && raw.charAt(j) !== '\n') {
          j += raw.charAt(j) === '\\' ? 2 : 1;
        }
        j = Math.min(j + 1, raw.length);
      }
      kinds.fill(kind, i, j);
      i = j;
    } else i += 1;
  }
  return kinds;
}

export type RuleLanguage = 'python' | 'js' | 'rust' | 'go';

const syntaxOf: Readonly<Record<Exclude<RuleLanguage, 'python'>, Syntax>> = {
  js: 'js',
  rust: 'rust',
  go: 'go',
};

/** The views of `raw` in `language`. Approximate on a fragment (a hunk may start in a string). */
export function sourceViews(raw: string, language: RuleLanguage): SourceViews {
  const kinds = language === 'python' ? pythonKinds(raw) : lex(raw, syntaxOf[language]).code;
  return viewsOf(raw, kinds);
}
