/** A lexer for brace languages: which characters are code, and where each bracket closes. */

export type Syntax = 'rust' | 'js' | 'go' | 'groovy' | 'cmake';

/** What each character of a lexed text is. */
export const COMMENT = 0;
export const CODE = 1;
export const STRING = 2;

export interface Lexed {
  /** COMMENT, CODE or STRING (string and regular-expression literals, Rust char literals). */
  readonly code: Uint8Array;
  /** The closer of each bracket in code, and the closing backtick of each JS template, by opener. */
  readonly close: { get(opener: number): number | undefined };
}

const openerOf: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };
// Before these (and at the start), a JS `/` starts a regular expression rather than dividing.
const regexAfter = new Set(Array.from('(,=:[!&|?{};+-*%<>~^'));
const regexAfterWords = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'instanceof',
  'yield',
  'await',
]);

export const isIdentifierCode = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;

/**
 * One pass over the text: strings and comments told apart from code (approximately: a JS `/`
 * is a regular expression after an operator, a Rust `'` a char literal only if it closes within
 * a few characters), and every bracket matched with an explicit stack — never recursion.
 */
export function lex(text: string, syntax: Syntax): Lexed {
  const n = text.length;
  const code = new Uint8Array(n);
  const closers = new Int32Array(n).fill(-1);
  const close = {
    set: (opener: number, closer: number): void => {
      closers[opener] = closer;
    },
    get: (opener: number): number | undefined => {
      const closer = closers[opener] ?? -1;
      return closer < 0 ? undefined : closer;
    },
  };
  const stack: number[] = [];
  const templateOf = new Map<number, number>(); // a `${` brace → the start of its template
  const braces = syntax !== 'cmake';
  let last = ''; // the last significant code character (JS: decides what `/` means)

  // A JS template's text from `from` (its backtick, or the `}` of a `${…}`); where code resumes.
  const template = (from: number, start: number): number => {
    let j = from + 1;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c === 92) j += 2;
      else if (c === 96) {
        close.set(start, j);
        code.fill(STRING, from, j + 1);
        return j + 1;
      } else if (c === 36 && text.charCodeAt(j + 1) === 123) {
        code.fill(STRING, from, j + 1);
        code[j + 1] = CODE;
        stack.push(j + 1);
        templateOf.set(j + 1, start);
        return j + 2;
      } else j += 1;
    }
    code.fill(STRING, from, n);
    return n;
  };
  // A quoted string from its opening quote; a single-line one also ends (unterminated) at a newline.
  const quoted = (from: number, quote: number, multiline: boolean): number => {
    let j = from + 1;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c === 92) j += 2;
      else if (c === quote) return j + 1;
      else if (c === 10 && !multiline) return j;
      else j += 1;
    }
    return n;
  };
  const skipTo = (needle: string, from: number): number => {
    const at = text.indexOf(needle, from);
    return at < 0 ? n : at + needle.length;
  };
  const literal = (from: number, to: number): void => {
    code.fill(STRING, from, Math.min(to, n));
    last = 'a';
  };

  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      code[i] = CODE;
      i += 1;
      continue;
    }
    const next = text.charCodeAt(i + 1);
    if (syntax === 'cmake' ? c === 35 : c === 47 && next === 47) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === 47 && next === 42 && syntax !== 'cmake') {
      if (syntax !== 'rust') {
        i = skipTo('*/', i + 2);
        continue;
      }
      let depth = 0; // Rust block comments nest
      let j = i;
      while (j < n) {
        if (text.startsWith('/*', j)) {
          depth += 1;
          j += 2;
        } else if (text.startsWith('*/', j)) {
          depth -= 1;
          j += 2;
          if (depth === 0) break;
        } else j += 1;
      }
      i = j;
      continue;
    }
    if (isIdentifierCode(c)) {
      let j = i + 1;
      while (j < n && isIdentifierCode(text.charCodeAt(j))) j += 1;
      code.fill(CODE, i, j);
      const word = syntax === 'js' && j - i <= 10 ? text.slice(i, j) : '';
      const prefix =
        text.charCodeAt(j - 1) === 114 && (j - i === 1 || (j - i === 2 && (c === 98 || c === 99)));
      if (syntax === 'rust' && prefix) {
        // r"…", br#"…"#, cr"…"
        let hashes = 0;
        while (text.charCodeAt(j + hashes) === 35) hashes += 1;
        if (text.charCodeAt(j + hashes) === 34) {
          const end = skipTo(`"${'#'.repeat(hashes)}`, j + hashes + 1);
          literal(j, end);
          i = end;
          continue;
        }
      }
      last = regexAfterWords.has(word) ? '(' : 'a';
      i = j;
      continue;
    }
    if (c === 34) {
      const end =
        syntax === 'groovy' && text.startsWith('"""', i)
          ? skipTo('"""', i + 3)
          : quoted(i, 34, syntax === 'rust' || syntax === 'cmake');
      literal(i, end);
      i = end;
      continue;
    }
    if (c === 39 && syntax !== 'cmake') {
      if (syntax === 'rust') {
        // A char literal ('a', '\n', '\u{1F600}') or a lifetime ('a): only the former closes.
        const width = (text.codePointAt(i + 1) ?? 0) > 0xffff ? 2 : 1;
        const end =
          text.charCodeAt(i + 1) === 92
            ? text.indexOf("'", i + 3)
            : text.charCodeAt(i + 1 + width) === 39
              ? i + 1 + width
              : -1;
        if (end > i && end - i <= 12) {
          literal(i, end + 1);
          i = end + 1;
        } else {
          code[i] = CODE;
          i += 1;
        }
        continue;
      }
      const end =
        syntax === 'groovy' && text.startsWith("'''", i)
          ? skipTo("'''", i + 3)
          : quoted(i, 39, false);
      literal(i, end);
      i = end;
      continue;
    }
    if (c === 96 && syntax === 'js') {
      i = template(i, i);
      last = 'a';
      continue;
    }
    if (c === 96 && syntax === 'go') {
      const end = skipTo('`', i + 1);
      literal(i, end);
      i = end;
      continue;
    }
    if (c === 47 && syntax === 'js' && (last === '' || regexAfter.has(last))) {
      let j = i + 1;
      let inClass = false;
      let end = -1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 92) j += 2;
        else if (d === 10) break;
        else {
          if (inClass) inClass = d !== 93;
          else if (d === 91) inClass = true;
          else if (d === 47) {
            end = j + 1;
            break;
          }
          j += 1;
        }
      }
      if (end > 0) {
        literal(i, end);
        i = end;
        continue;
      }
    }
    code[i] = CODE;
    const char = text.charAt(i);
    last = char;
    if (c === 40 || c === 91 || (c === 123 && braces)) {
      stack.push(i);
    } else if (c === 41 || c === 93 || (c === 125 && braces)) {
      // Match the nearest opener of the same kind a few levels down: an unclosed bracket (a lexing
      // miss) then costs its own block, not the rest of the file.
      const want = openerOf[char];
      let k = stack.length - 1;
      while (k >= 0 && k >= stack.length - 4 && text.charAt(stack[k] ?? 0) !== want) k -= 1;
      if (k >= 0 && k >= stack.length - 4) {
        const opener = stack[k] ?? 0;
        stack.length = k;
        close.set(opener, i);
        const start = templateOf.get(opener);
        if (start !== undefined) {
          const closeAt = i;
          i = template(closeAt, start);
          code[closeAt] = CODE; // the `}` of `${…}` is code; the template's text goes on after it
          last = 'a';
          continue;
        }
      }
    }
    i += 1;
  }
  return { code, close };
}

export function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text.charAt(i))) i += 1;
  return i;
}
