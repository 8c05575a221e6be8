/**
 * Which changes of a hypothesis edit tests. A hypothesis that edits tests could pass by weakening
 * them, and test-named files are not the only place tests live: a Rust `#[cfg(test)]` module in
 * `src/lib.rs`, a `describe` block in `src/util.ts`, a `pytest.ini` with `--deselect` or a
 * `//go:build ignore` line change what the test run checks just as much.
 *
 * Three kinds, checked per changed file in this order (a file gets the first kind that applies):
 * - `test-config`: the file configures how tests are collected or run (see `configWhats`; some
 *   files count only where their test sections changed).
 * - `test-file`: the path is a test file by convention (`isTestPath`).
 * - `test-in-source`: a test inside an ordinary source file was added, changed or removed: Rust
 *   `#[cfg(test)]` items and `#[test]` functions, Rust doc-comment examples, Python `def test*` /
 *   `class Test*` and doctests, JS/TS `describe`/`it`/`test` calls and `import.meta.vitest`
 *   blocks, Go `func TestXxx`. Blocks are found by bracket matching over a lexer that skips
 *   strings and comments (approximately: JS regular expressions and JSX text by heuristics),
 *   Python's by indentation; each block is compared as text before and after.
 *
 * Not covered: task runners (`Makefile`, `justfile`, CI workflows), Bazel, code that patches test
 * machinery from an ordinary module, and tests in languages other than these four.
 *
 * Pure and linear in the size of the files (every bracket is matched once, in one pass).
 */

/** One changed file: its text before and after; null where the file is absent. */
export interface FileChange {
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
}

export type TestEditKind = 'test-file' | 'test-config' | 'test-in-source';

export interface TestEdit {
  readonly path: string;
  readonly kind: TestEditKind;
  /** What changed, in words: "test 'tests::adds' changed in src/lib.rs". */
  readonly what: string;
}

// ---------------------------------------------------------------------------------------------
// Test files by path

// Directory names and file names that hold tests by convention, across ecosystems.
const testDirectory =
  /^(?:tests?|__tests?__|specs?|testdata|e2e|__snapshots__)$|[._-](?:tests?|specs?)$/i;
const testFileName = [
  /_test\.[A-Za-z0-9]+$/, // Go, Python, Ruby, Elixir, Dart, C/C++
  /^test_[^/]*\.py$/,
  /^conftest\.py$/,
  // Django's `tests.py`, a root `test.py`, Rust's `#[cfg(test)] mod tests;` file, `node test.js`.
  /^tests?\.(?:py|rs|js|mjs|cjs|ts|mts|cts)$/,
  /\.(?:test|spec)\.[A-Za-z0-9]+$/, // JS/TS, also *.spec.* anywhere
  /_spec\.[A-Za-z0-9]+$/,
  /[a-z0-9](?:Tests?|IT)\.(?:java|kt|scala|groovy|cs|php)$/,
  /\.snap$/,
];

export function isTestPath(path: string | null): boolean {
  if (path === null) return false;
  const parts = path.split('/');
  const name = parts.pop() ?? '';
  return parts.some((part) => testDirectory.test(part)) || testFileName.some((re) => re.test(name));
}

const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

function extensionOf(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Git's rule: a NUL in the first 8000 bytes. Where this says binary, so does the diff. */
function isBinary(text: string): boolean {
  const head = text.slice(0, 8000);
  const nul = head.indexOf('\0');
  return nul >= 0 && Buffer.byteLength(head.slice(0, nul), 'utf8') < 8000;
}

type FileVerb = 'added' | 'deleted' | 'changed';

const fileVerb = (before: string | null, after: string | null): FileVerb =>
  before === null ? 'added' : after === null ? 'deleted' : 'changed';

/** Multiset difference of two lists of strings. */
function multisetDiff(
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
function addedLines(before: string | null, after: string | null): string[] {
  const trim = (lines: string[]): string[] => lines.map((line) => line.trim());
  return multisetDiff(trim(linesOf(before)), trim(linesOf(after))).added;
}

// Options that narrow what pytest collects or runs; named in `what` when a change adds them.
const pytestNarrowing =
  /(?<![\w-])(--deselect|--ignore-glob|--ignore|--collect-only|--co|--last-failed|--lf|--exitfirst|--maxfail|--continue-on-collection-errors|-p\s*no:[\w.-]+|-k|-m|-x)(?![\w-])/g;

function narrowingOptions(lines: readonly string[]): string[] {
  const found = new Set<string>();
  for (const line of lines) {
    for (const match of line.matchAll(pytestNarrowing)) {
      found.add((match[1] ?? '').replace(/\s+/g, ' '));
    }
  }
  return [...found];
}

// ---------------------------------------------------------------------------------------------
// A lexer for brace languages: which characters are code, and where each bracket closes

type Syntax = 'rust' | 'js' | 'go' | 'groovy' | 'cmake';

/** What each character of a lexed text is. */
const COMMENT = 0;
const CODE = 1;
const STRING = 2;

interface Lexed {
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

const isIdentifierCode = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36;

/**
 * One pass over the text: strings and comments told apart from code (approximately: a JS `/`
 * is a regular expression after an operator, a Rust `'` a char literal only if it closes within
 * a few characters), and every bracket matched with an explicit stack — never recursion.
 */
function lex(text: string, syntax: Syntax): Lexed {
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

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text.charAt(i))) i += 1;
  return i;
}

// ---------------------------------------------------------------------------------------------
// Test blocks in source files, keyed and compared

interface Block {
  readonly start: number;
  readonly end: number;
  /** Its own name; qualified with its enclosing blocks' names unless the set says `qualified`. */
  readonly name: string;
  readonly label: string;
  /** Left out of the names of the blocks inside it (`if (import.meta.vitest) { … }`). */
  readonly anonymous?: boolean;
}

interface Keyed {
  readonly label: string;
  readonly text: string;
  /** The key of the enclosing block, if any. */
  readonly parent: string | null;
}

interface BlockSet {
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
function keyedBlocks(text: string, set: BlockSet): Map<string, Keyed> {
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

function compareBlocks(
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

function rustBlocks(text: string): BlockSet {
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

// Go: `func TestXxx(…)` outside `_test.go` files.
function goBlocks(text: string): BlockSet {
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

function jsBlocks(text: string): BlockSet {
  const lexed = lex(text, 'js');
  const blocks: Block[] = [];
  for (const match of text.matchAll(jsCallee)) {
    if (lexed.code[match.index] !== CODE) continue;
    const block = jsTestCall(text, lexed, match.index, match[0]);
    if (block !== null) blocks.push(block);
  }
  for (const match of text.matchAll(/\bif\s*\(\s*import\.meta\.vitest\s*\)\s*\{/g)) {
    const closeAt = lexed.close.get(match.index + match[0].length - 1);
    if (lexed.code[match.index] === CODE && closeAt !== undefined) {
      blocks.push({
        start: match.index,
        end: closeAt + 1,
        name: 'import.meta.vitest',
        label: 'in-source test block',
        anonymous: true,
      });
    }
  }
  return { blocks, separator: ' > ', qualified: false, code: lexed.code };
}

// Python: `def test*` and `class Test*` at any depth, by indentation.
interface PythonLineState {
  triple: '"""' | "'''" | null;
  depth: number;
}

/** Advances the string/bracket state over one line; whether the line started inside either. */
function scanPythonLine(line: string, state: PythonLineState): boolean {
  const continued = state.triple !== null || state.depth > 0;
  let i = 0;
  while (i < line.length) {
    if (state.triple !== null) {
      const end = line.indexOf(state.triple, i);
      if (end < 0) return continued;
      state.triple = null;
      i = end + 3;
      continue;
    }
    const c = line.charAt(i);
    if (c === '#') break;
    if (c === '"' || c === "'") {
      const triple = c.repeat(3);
      if (line.startsWith(triple, i)) {
        state.triple = triple === '"""' ? '"""' : "'''";
        i += 3;
        continue;
      }
      let j = i + 1;
      while (j < line.length && line.charAt(j) !== c) j += line.charAt(j) === '\\' ? 2 : 1;
      i = j + 1;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') state.depth += 1;
    else if ((c === ')' || c === ']' || c === '}') && state.depth > 0) state.depth -= 1;
    i += 1;
  }
  return continued;
}

function indentOf(line: string): number {
  let width = 0;
  for (const c of line) {
    if (c === ' ') width += 1;
    else if (c === '\t') width += 8 - (width % 8);
    else break;
  }
  return width;
}

function pythonBlocks(text: string): BlockSet {
  const blocks: Block[] = [];
  const scopes: {
    indent: number;
    name: string;
    qualified: string;
    start: number;
    label: string | null;
  }[] = [];
  const state: PythonLineState = { triple: null, depth: 0 };
  let lastEnd = 0;
  let decorators = -1;
  const closeScopes = (indent: number): void => {
    for (let top = scopes.at(-1); top !== undefined && top.indent >= indent; top = scopes.at(-1)) {
      scopes.pop();
      if (top.label !== null) {
        blocks.push({ start: top.start, end: lastEnd, name: top.qualified, label: top.label });
      }
    }
  };
  for (let start = 0; start <= text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    const trimmed = line.trim();
    const continued = scanPythonLine(line, state);
    if (continued) {
      if (trimmed !== '') lastEnd = end;
    } else if (trimmed !== '' && !trimmed.startsWith('#')) {
      const indent = indentOf(line);
      closeScopes(indent);
      if (trimmed.startsWith('@')) {
        if (decorators < 0) decorators = start;
      } else {
        const def = /^(?:async\s+)?(def|class)\s+([A-Za-z_]\w*)/.exec(trimmed);
        if (def !== null) {
          const name = def[2] ?? '';
          const test = def[1] === 'def' ? name.startsWith('test') : name.startsWith('Test');
          const qualified = [...scopes.map((s) => s.name), name].join('.');
          const label = !test ? null : def[1] === 'def' ? 'test' : 'test class';
          scopes.push({
            indent,
            name,
            qualified,
            start: decorators < 0 ? start : decorators,
            label,
          });
        }
        decorators = -1;
      }
      lastEnd = end;
    }
    if (newline < 0) break;
    start = newline + 1;
  }
  closeScopes(-1);
  // Names come qualified by every enclosing class and function: `TestA.test_x`, `Calc.test_adds`.
  return { blocks, separator: '.', qualified: true };
}

/** Examples that `cargo test` / `pytest --doctest-modules` run from doc comments and docstrings. */
function docExamples(text: string, language: 'rust' | 'python'): string[] {
  const examples: string[] = [];
  let current: string[] | null = null;
  let fence = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (language === 'rust') {
      const doc = /^\/\/[/!]\s?(.*)$/.exec(line);
      const body = doc?.[1]?.trim();
      if (body === undefined) {
        fence = false;
        continue;
      }
      if (body.startsWith('```')) {
        if (fence && current !== null) examples.push(current.join('\n'));
        fence = !fence;
        current = fence ? [] : null;
      } else if (fence) current?.push(body);
    } else if (line.startsWith('>>>')) {
      current ??= [];
      current.push(line);
    } else if (current !== null) {
      if (line === '' || line === '"""' || line === "'''") {
        examples.push(current.join('\n'));
        current = null;
      } else current.push(line);
    }
  }
  if (language === 'python' && current !== null) examples.push(current.join('\n'));
  return examples;
}

type SourceLanguage = 'rust' | 'python' | 'js' | 'go';

const sourceLanguages: Readonly<Record<string, SourceLanguage>> = {
  rs: 'rust',
  py: 'python',
  js: 'js',
  jsx: 'js',
  ts: 'js',
  tsx: 'js',
  mjs: 'js',
  cjs: 'js',
  mts: 'js',
  cts: 'js',
  go: 'go',
};

const blocksOf: Readonly<Record<SourceLanguage, (text: string) => BlockSet>> = {
  rust: rustBlocks,
  python: pythonBlocks,
  js: jsBlocks,
  go: goBlocks,
};

const MAX_EDITS_PER_FILE = 20;

function inSourceWhats(path: string, before: string | null, after: string | null): string[] {
  const language = sourceLanguages[extensionOf(path)];
  if (language === undefined) return [];
  if ((before !== null && isBinary(before)) || (after !== null && isBinary(after))) return [];
  const find = blocksOf[language];
  const keyed = (text: string | null): Map<string, Keyed> =>
    text === null ? new Map<string, Keyed>() : keyedBlocks(text, find(text));
  const whats = compareBlocks(path, keyed(before), keyed(after));
  if (language === 'rust' || language === 'python') {
    const examples = multisetDiff(
      before === null ? [] : docExamples(before, language),
      after === null ? [] : docExamples(after, language),
    );
    if (examples.added.length + examples.removed.length > 0) {
      whats.push(`${language === 'rust' ? 'doc tests' : 'doctests'} changed in ${path}`);
    }
  }
  if (whats.length <= MAX_EDITS_PER_FILE) return whats;
  return [
    ...whats.slice(0, MAX_EDITS_PER_FILE),
    `${whats.length - MAX_EDITS_PER_FILE} more test edits in ${path}`,
  ];
}

// ---------------------------------------------------------------------------------------------
// Files that configure how tests are collected or run

/** Files whose every change counts. Matched against the path's tail. */
const wholeConfigFiles: readonly RegExp[] = [
  /(?:^|\/)\.?pytest\.ini$/, // pytest
  /(?:^|\/)conftest\.py$/, // pytest hooks and fixtures, any directory
  /(?:^|\/)noxfile\.py$/,
  /(?:^|\/)(?:jest|vitest)\.(?:config|setup)\.[\w.]+$/,
  /(?:^|\/)vitest\.workspace\.[\w.]+$/,
  /(?:^|\/)setupTests\.[jt]sx?$/, // Create React App's setup file
  /(?:^|\/)\.mocharc(?:\.\w+)?$/,
  /(?:^|\/)karma\.conf(?:ig)?\.[\w.]+$/,
  /(?:^|\/)ava\.config\.[\w.]+$/,
  /(?:^|\/)(?:playwright|cypress)\.config\.[\w.]+$/,
  /(?:^|\/)phpunit(?:\.dist)?\.xml(?:\.dist)?$/,
  /(?:^|\/)\.rspec$/,
  /(?:^|\/)CTest(?:Testfile|Custom)\.cmake$/,
  /(?:^|\/)\.config\/nextest\.toml$/,
  /(?:^|\/)\.nextest\.toml$/,
  /(?:^|\/)\.cargo\/config(?:\.toml)?$/,
];

const pytestish = /pytest|tox|testenv/;

function wholeConfigWhat(path: string, before: string | null, after: string | null): string {
  const options = pytestish.test(baseName(path)) ? narrowingOptions(addedLines(before, after)) : [];
  return options.length > 0
    ? `${path} adds ${options.join(', ')}`
    : `${path} ${fileVerb(before, after)}`;
}

/** `[a]` → `a`, with quotes and the spaces around dots of TOML keys dropped. */
const normalKey = (key: string): string =>
  key
    .replace(/["']/g, '')
    .replace(/\s*\.\s*/g, '.')
    .trim();

const tomlHeader = /^(\[\[?)([^[\]]*)\]\]?\s*(?:#.*)?$/;
const tomlKey =
  /^((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=/;

/** Advances a TOML value's string/bracket state over one line. */
function scanTomlLine(line: string, state: PythonLineState): void {
  let i = 0;
  while (i < line.length) {
    if (state.triple !== null) {
      const end = line.indexOf(state.triple, i);
      if (end < 0) return;
      state.triple = null;
      i = end + 3;
      continue;
    }
    const c = line.charAt(i);
    if (c === '#') return;
    if (c === '"' || c === "'") {
      if (line.startsWith(c.repeat(3), i)) {
        state.triple = c === '"' ? '"""' : "'''";
        i += 3;
        continue;
      }
      let j = i + 1;
      while (j < line.length && line.charAt(j) !== c)
        j += c === '"' && line.charAt(j) === '\\' ? 2 : 1;
      i = j + 1;
      continue;
    }
    if (c === '[' || c === '{') state.depth += 1;
    else if ((c === ']' || c === '}') && state.depth > 0) state.depth -= 1;
    i += 1;
  }
}

/**
 * The lines of a TOML file that `relevant` picks, by label: a whole table (`[tool.pytest.ini_options]`)
 * where the table's path is relevant, or single keys (`[package] autotests`) where only theirs is.
 */
function tomlProjection(text: string, relevant: (path: string) => boolean): Map<string, string[]> {
  const result = new Map<string, string[]>();
  const push = (label: string, line: string): void => {
    const lines = result.get(label) ?? [];
    lines.push(line);
    result.set(label, lines);
  };
  const state: PythonLineState = { triple: null, depth: 0 };
  let table = '';
  let header = '';
  let entry: string | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (state.triple !== null || state.depth > 0) {
      if (entry !== null && line !== '') push(entry, line);
      scanTomlLine(raw, state);
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const head = tomlHeader.exec(line);
    if (head !== null) {
      table = normalKey(head[2] ?? '');
      header = head[1] === '[[' ? `[[${table}]]` : `[${table}]`;
      entry = null;
      if (relevant(table)) push(header, header);
      continue;
    }
    const key = tomlKey.exec(line);
    entry = null;
    if (key !== null) {
      const name = normalKey(key[1] ?? '');
      const full = table === '' ? name : `${table}.${name}`;
      if (table !== '' && relevant(table)) entry = header;
      else if (relevant(full)) entry = table === '' ? name : `${header} ${name}`;
      if (entry !== null) push(entry, line);
    }
    scanTomlLine(raw.slice(raw.indexOf('=') + 1), state);
  }
  return result;
}

/** INI sections `relevant` picks, by name (lower case), without blank and comment lines. */
function iniProjection(text: string, relevant: (name: string) => boolean): Map<string, string[]> {
  const result = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const head = /^\[([^\]]+)\]$/.exec(line);
    if (head !== null) {
      const name = (head[1] ?? '').trim().toLowerCase();
      current = relevant(name) ? (result.get(`[${name}]`) ?? []) : null;
      if (current !== null) result.set(`[${name}]`, current);
      continue;
    }
    if (current !== null && line !== '' && !line.startsWith('#') && !line.startsWith(';')) {
      current.push(line);
    }
  }
  return result;
}

/** Labels whose lines differ, in words, naming pytest-narrowing options a change adds. */
function compareProjections(
  path: string,
  before: Map<string, string[]> | null,
  after: Map<string, string[]> | null,
): string[] {
  const whats: string[] = [];
  const labels = new Set([...(before?.keys() ?? []), ...(after?.keys() ?? [])]);
  for (const label of labels) {
    const was = before?.get(label);
    const now = after?.get(label);
    if (was !== undefined && now !== undefined && was.join('\n') === now.join('\n')) continue;
    const verb = was === undefined ? 'added' : now === undefined ? 'removed' : 'changed';
    const options = pytestish.test(label)
      ? narrowingOptions(multisetDiff(was ?? [], now ?? []).added)
      : [];
    whats.push(
      `${label} ${verb} in ${path}${options.length > 0 ? ` (adds ${options.join(', ')})` : ''}`,
    );
  }
  return whats;
}

const pyprojectKeys = [
  /^tool\.(?:pytest|tox)(?:\.|$)/,
  /^tool\.(?:hatch\.envs\.[^.]+\.scripts|pdm\.scripts|poe\.tasks)\.test(?:$|[.:_-])/,
];
// `[[test]]` targets, a target's `test`/`harness`/`doctest`, `autotests`, the test profile (and the
// dev profile's assertion switches it inherits), and which crates a workspace holds.
const cargoKeys = [
  /^test(?:\.|$)/,
  /^(?:lib|bin|bench|example)\.(?:test|harness|doctest)$/,
  /^package\.autotests$/,
  /^profile\.test(?:\.|$)/,
  /^profile\.dev\.(?:debug-assertions|overflow-checks)$/,
  /^workspace\.(?:members|exclude|default-members)$/,
];
const anyOf =
  (patterns: readonly RegExp[]) =>
  (path: string): boolean =>
    patterns.some((re) => re.test(path));

const toxSections = (name: string): boolean =>
  ['pytest', 'tool:pytest', 'tox'].includes(name) || name.startsWith('testenv');
const setupCfgSections = (name: string): boolean =>
  ['tool:pytest', 'tox:tox'].includes(name) || name.startsWith('testenv');

function canonicalJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, item]) => [k, sort(item)]),
          )
        : v;
  return JSON.stringify(sort(value));
}

const testScript = /^(?:pre|post)?test(?:$|[:_-])/;

/** `jest`/`mocha`/`ava`/`vitest` settings and test scripts; null when the text is not JSON. */
function packageJsonProjection(text: string): Map<string, string[]> | null {
  try {
    const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    const result = new Map<string, string[]>();
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return result;
    const object = parsed as Record<string, unknown>;
    for (const key of ['jest', 'mocha', 'ava', 'vitest']) {
      if (key in object) result.set(key, [canonicalJson(object[key])]);
    }
    const scripts = object.scripts;
    if (scripts !== null && typeof scripts === 'object' && !Array.isArray(scripts)) {
      for (const [name, script] of Object.entries(scripts as Record<string, unknown>)) {
        if (testScript.test(name)) result.set(`scripts.${name}`, [canonicalJson(script)]);
      }
    }
    return result;
  } catch {
    return null; // unparsable, or nested too deep to compare
  }
}

const cmakeTestCommands = new Set([
  'add_test',
  'enable_testing',
  'set_tests_properties',
  'gtest_discover_tests',
  'gtest_add_tests',
  'catch_discover_tests',
  'doctest_discover_tests',
]);

/** CMake commands that declare, enable or disable tests, as normalized text. */
function cmakeTestCommandsOf(text: string): string[] {
  const lexed = lex(text, 'cmake');
  const found: string[] = [];
  for (const match of text.matchAll(/(?<![\w])([A-Za-z_]\w*)[ \t]*\(/g)) {
    if (lexed.code[match.index] !== CODE) continue;
    const open = match.index + match[0].length - 1;
    const closeAt = lexed.close.get(open);
    if (closeAt === undefined) continue;
    const name = (match[1] ?? '').toLowerCase();
    const args = text.slice(open + 1, closeAt);
    const relevant =
      cmakeTestCommands.has(name) ||
      (name === 'set_property' && /^\s*TEST\b/i.test(args)) ||
      (name === 'include' &&
        /^\s*(?:CTest|GoogleTest|Catch|ParseAndAddCatchTests|doctest)\b/i.test(args)) ||
      (name === 'add_subdirectory' && /test/i.test(args)) ||
      /\bBUILD_TESTING\b|\bCTEST_/i.test(args);
    if (relevant) found.push(`${name}(${args.replace(/\s+/g, ' ').trim()})`);
  }
  return found;
}

function cmakeWhats(path: string, before: string | null, after: string | null): string[] {
  const { removed, added } = multisetDiff(
    before === null ? [] : cmakeTestCommandsOf(before),
    after === null ? [] : cmakeTestCommandsOf(after),
  );
  const nameOf = (command: string): string => command.slice(0, command.indexOf('('));
  const removedNames = new Set(removed.map(nameOf));
  const addedNames = new Set(added.map(nameOf));
  return [...new Set([...removedNames, ...addedNames])].map((name) => {
    const verb = !removedNames.has(name) ? 'added' : !addedNames.has(name) ? 'removed' : 'changed';
    return `${name} ${verb} in ${path}`;
  });
}

const mavenTestLine =
  /skipTests|skipITs|maven\.test\.|testFailureIgnore|<testSourceDirectory|surefire\.|failsafe\./;

/** Surefire/Failsafe plugin elements and test-skipping properties of a `pom.xml`. */
function mavenProjection(text: string): Map<string, string[]> {
  const plugins: string[] = [];
  let from = 0;
  for (const match of text.matchAll(/maven-(?:surefire|failsafe)-plugin/g)) {
    if (match.index < from) continue;
    const start = text.lastIndexOf('<plugin>', match.index);
    const end = text.indexOf('</plugin>', match.index);
    const stop = end < 0 ? match.index + match[0].length : end;
    plugins.push(text.slice(start < from ? match.index : start, stop).replace(/\s+/g, ' '));
    from = stop;
  }
  const properties = text
    .split('\n')
    .filter((line) => mavenTestLine.test(line))
    .map((line) => line.trim());
  const result = new Map<string, string[]>();
  if (plugins.length > 0) result.set('surefire/failsafe plugin configuration', plugins);
  if (properties.length > 0) result.set('test-skipping properties', properties);
  return result;
}

// Gradle's test task and `testing` blocks, and filter/failure settings anywhere.
const gradleTestBlock =
  /(?<![\w.$])(?:tasks\s*\.\s*)?(?:test|testing|withType\s*(?:<\s*Test\s*>|\(\s*Test(?:::class(?:\.java)?)?\s*\))|named\s*(?:<\s*Test\s*>\s*)?\(\s*["']test["'](?:\s*,\s*Test(?:::class(?:\.java)?)?)?\s*\))\s*\{/g;
const gradleTestLine = /\b(?:exclude|include)TestsMatching\b|\bignoreFailures\b|\bskipTests\b/;

function gradleProjection(text: string): Map<string, string[]> {
  const lexed = lex(text, 'groovy');
  const blocks: string[] = [];
  for (const match of text.matchAll(gradleTestBlock)) {
    const closeAt = lexed.close.get(match.index + match[0].length - 1);
    if (lexed.code[match.index] === CODE && closeAt !== undefined) {
      blocks.push(text.slice(match.index, closeAt + 1).replace(/\s+/g, ' '));
    }
  }
  const lines = text
    .split('\n')
    .filter((line) => gradleTestLine.test(line))
    .map((line) => line.trim());
  const result = new Map<string, string[]>();
  if (blocks.length + lines.length > 0)
    result.set('test task configuration', [...blocks, ...lines]);
  return result;
}

/** The `test: { … }` options of a `vite.config.*` (Vitest reads them from there too). */
function viteProjection(text: string): Map<string, string[]> {
  const lexed = lex(text, 'js');
  const blocks: string[] = [];
  for (const match of text.matchAll(/(?<![\w$.])test\s*:\s*\{/g)) {
    const closeAt = lexed.close.get(match.index + match[0].length - 1);
    if (lexed.code[match.index] === CODE && closeAt !== undefined) {
      blocks.push(text.slice(match.index, closeAt + 1).replace(/\s+/g, ' '));
    }
  }
  return blocks.length > 0 ? new Map([['test options', blocks]]) : new Map<string, string[]>();
}

const goConstraint = /^\s*\/\/(?:go:build\b| \+build\b)/;

/** Build constraints added or removed in a Go file that exists on both sides. */
function goConstraintWhats(path: string, before: string, after: string): string[] {
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

type Projection = (text: string) => Map<string, string[]> | null;

/** Files that count only where their test settings changed, by how those are read. */
function projectionFor(path: string): Projection | null {
  const name = baseName(path);
  if (name === 'pyproject.toml') return (text) => tomlProjection(text, anyOf(pyprojectKeys));
  if (name === 'Cargo.toml') return (text) => tomlProjection(text, anyOf(cargoKeys));
  if (name === 'tox.ini') return (text) => iniProjection(text, toxSections);
  if (name === 'setup.cfg') return (text) => iniProjection(text, setupCfgSections);
  if (name === 'package.json') return packageJsonProjection;
  if (name === 'pom.xml') return mavenProjection;
  if (/\.gradle(?:\.kts)?$/.test(name)) return gradleProjection;
  if (/^vite\.config\.[\w.]+$/.test(name)) return viteProjection;
  return null;
}

const isCmake = (path: string): boolean => {
  const name = baseName(path);
  return name === 'CMakeLists.txt' || name.endsWith('.cmake');
};

/** How a change alters test configuration, in words; empty when it does not. */
function configWhats(path: string, before: string | null, after: string | null): string[] {
  if (wholeConfigFiles.some((re) => re.test(path))) return [wholeConfigWhat(path, before, after)];
  const projection = projectionFor(path);
  const binary = [before, after].some((text) => text !== null && isBinary(text));
  if ((projection !== null || isCmake(path)) && binary) {
    // A configuration file that is not text cannot be read for its test settings: it counts.
    return [`${path} ${fileVerb(before, after)} (not text)`];
  }
  if (projection !== null) {
    const was = before === null ? new Map<string, string[]>() : projection(before);
    const now = after === null ? new Map<string, string[]>() : projection(after);
    if (was === null || now === null) {
      return [`${path} ${fileVerb(before, after)} and cannot be read as JSON`];
    }
    return compareProjections(path, was, now);
  }
  if (isCmake(path)) return cmakeWhats(path, before, after);
  if (extensionOf(path) === 'go' && before !== null && after !== null && !binary) {
    return goConstraintWhats(path, before, after);
  }
  return [];
}

// ---------------------------------------------------------------------------------------------

/** The test edits among a hypothesis's changes, in the order of the changes. Never throws. */
export function testEditsOf(changes: readonly FileChange[]): readonly TestEdit[] {
  const edits: TestEdit[] = [];
  for (const { path, before, after } of changes) {
    if (before === after) continue;
    const config = configWhats(path, before, after);
    if (config.length > 0) {
      for (const what of config) edits.push({ path, kind: 'test-config', what });
    } else if (isTestPath(path)) {
      edits.push({ path, kind: 'test-file', what: `${path} ${fileVerb(before, after)}` });
    } else {
      for (const what of inSourceWhats(path, before, after)) {
        edits.push({ path, kind: 'test-in-source', what });
      }
    }
  }
  return edits;
}

// ---------------------------------------------------------------------------------------------
// From a diff alone: what its hunks show

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
  }[];
  /** The text after each hunk header's `@@ … @@`: git's guess at the enclosing function. */
  readonly hunkContexts?: readonly string[];
}

type HunkLine = HunkFile['lines'][number];

const hunkVerb = (file: HunkFile): string =>
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
function* linesAbove(lines: readonly HunkLine[], index: number): Generator<HunkLine> {
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
function enclosing(
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

// Lines that declare tests (or mark them) in ordinary source files, by language.
const sourceMarkers: Readonly<Record<SourceLanguage, RegExp>> = {
  rust: /^\s*(?:#!?\[\s*(?:cfg\s*\([^)]*\btest\b|(?:[A-Za-z_]\w*\s*::\s*)*(?:test|bench|rstest|test_case|quickcheck|proptest|wasm_bindgen_test)\b)|(?:pub(?:\([^)]*\))?\s+)?mod\s+tests?\b|proptest!)/,
  python: /^\s*(?:(?:async\s+)?def\s+test\w*\s*\(|class\s+Test\w*\s*[(:])/,
  js: /(?<![\w$.])(?:[xf]?(?:describe|it|test)|suite|specify)(?:\s*\.\s*[A-Za-z]+)*\s*[(`]|\bimport\.meta\.vitest\b/,
  go: /^\s*func\s+Test(?![a-z])\w*\s*\(/,
};

function hunkInSourceWhats(file: HunkFile, path: string, language: SourceLanguage): string[] {
  const marker = sourceMarkers[language];
  const whats = new Set<string>();
  let fenceParity: { hunk: number; open: boolean } = { hunk: -1, open: false };
  file.lines.forEach((line, index) => {
    if (line.hunk !== fenceParity.hunk) fenceParity = { hunk: line.hunk, open: false };
    const trimmed = line.text.trim();
    if (language === 'rust' && /^\/\/[/!]\s*```/.test(trimmed)) {
      fenceParity.open = !fenceParity.open;
      if (line.kind !== ' ') whats.add(`doc tests changed in ${path}`);
      return;
    }
    if (line.kind === ' ' || trimmed === '') return;
    if (language === 'rust' && fenceParity.open && /^\/\/[/!]/.test(trimmed)) {
      whats.add(`doc tests changed in ${path}`);
      return;
    }
    if (language === 'python' && (trimmed.startsWith('>>>') || /^\.\.\.\s/.test(trimmed))) {
      whats.add(`doctests changed in ${path}`);
      return;
    }
    const verb = line.kind === '+' ? 'added' : 'removed';
    if (marker.test(line.text)) {
      whats.add(`test line '${trimmed.slice(0, 80)}' ${verb} in ${path}`);
      return;
    }
    const { chain, resolved } = enclosing(file.lines, index);
    const test = chain.find(
      (scope) => marker.test(scope.line) || scope.above.some((text) => marker.test(text)),
    );
    const context = file.hunkContexts?.[line.hunk] ?? '';
    if (test !== undefined) {
      whats.add(`test code changed in ${path} (in '${test.line.trim().slice(0, 80)}')`);
    } else if (!resolved && marker.test(context)) {
      whats.add(`test code changed in ${path} (in '${context.trim().slice(0, 80)}')`);
    }
  });
  return [...whats];
}

const tomlOrIniHeader = /^\s*(\[\[?)([^[\]]+)\]\]?\s*(?:[#;].*)?$/;
const pytestSetting =
  /^\s*(?:addopts|testpaths|python_files|python_classes|python_functions|norecursedirs|harness|autotests|doctest)\s*=/;

interface Section {
  readonly table: string;
  readonly array: boolean;
}

/**
 * TOML/INI in a diff: the section of each changed line, as far as the hunk shows it (one pass,
 * the old and the new side each keeping the last header it has seen in the hunk).
 */
function hunkSectionWhats(
  file: HunkFile,
  path: string,
  relevant: (section: Section | null, key: string | null) => string | null,
): string[] {
  const whats = new Set<string>();
  let hunk = -1;
  let old: Section | null = null;
  let current: Section | null = null;
  for (const line of file.lines) {
    if (line.hunk !== hunk) {
      hunk = line.hunk;
      old = null;
      current = null;
    }
    const head = tomlOrIniHeader.exec(line.text);
    const section: Section | null =
      head === null ? null : { table: normalKey(head[2] ?? ''), array: head[1] === '[[' };
    if (section !== null) {
      if (line.kind !== '+') old = section;
      if (line.kind !== '-') current = section;
    }
    if (line.kind === ' ' || line.text.trim() === '') continue;
    const within = line.kind === '+' ? current : old;
    const key = section === null ? normalKey(tomlKey.exec(line.text.trim())?.[1] ?? '') : null;
    const label = relevant(within, key === '' ? null : key);
    if (label !== null) whats.add(`${label} changed in ${path}`);
    else if (
      within === null &&
      (pytestSetting.test(line.text) || narrowingOptions([line.text]).length > 0)
    ) {
      whats.add(
        `test setting '${line.text.trim().slice(0, 80)}' changed in ${path} (its section is not in the diff)`,
      );
    }
  }
  return [...whats];
}

const sectionHeader = (section: Section): string =>
  section.array ? `[[${section.table}]]` : `[${section.table}]`;

function tomlRelevance(patterns: readonly RegExp[]) {
  const test = anyOf(patterns);
  return (section: Section | null, key: string | null): string | null => {
    const table = section?.table ?? '';
    if (section !== null && test(table)) return sectionHeader(section);
    const full = table === '' ? (key ?? '') : key === null ? table : `${table}.${key}`;
    if (full === '' || !test(full)) return null;
    return section === null ? full : `${sectionHeader(section)} ${key ?? ''}`.trim();
  };
}

const iniRelevance =
  (sections: (name: string) => boolean) =>
  (section: Section | null): string | null => {
    const name = section?.table.toLowerCase() ?? '';
    return section !== null && sections(name) ? `[${name}]` : null;
  };

const jsonKey = /^\s*"((?:[^"\\]|\\.)*)"\s*:/;

/** package.json in a diff: changed lines under a test key, as far as the hunk shows the nesting. */
function hunkPackageJsonWhats(file: HunkFile, path: string): string[] {
  const whats = new Set<string>();
  file.lines.forEach((line, index) => {
    if (line.kind === ' ' || line.text.trim() === '') return;
    // npm writes two spaces (some tools a tab): a top-level key has at most two characters before.
    const leading = (text: string): number => text.length - text.trimStart().length;
    const keys: { key: string; indent: number }[] = [];
    const ownKey = jsonKey.exec(line.text)?.[1];
    if (ownKey !== undefined) keys.push({ key: ownKey, indent: leading(line.text) });
    let threshold = leading(line.text);
    for (const above of linesAbove(file.lines, index)) {
      if (threshold <= 2) break;
      const indent = leading(above.text);
      const key = jsonKey.exec(above.text)?.[1];
      if (indent < threshold && key !== undefined) {
        keys.unshift({ key, indent });
        threshold = indent;
      }
    }
    const root = keys[0];
    if (root === undefined || root.indent > 2) {
      // The hunk does not show the top level: go by the line's own key.
      // (Not `jest` or `vitest`: those are as likely a version bump under devDependencies.)
      if (ownKey !== undefined && testScript.test(ownKey)) {
        whats.add(`"${ownKey}" changed in ${path} (its parent is not in the diff)`);
      }
      return;
    }
    if (['jest', 'mocha', 'ava', 'vitest'].includes(root.key))
      whats.add(`${root.key} changed in ${path}`);
    const script = keys[1]?.key;
    if (root.key === 'scripts' && script !== undefined && testScript.test(script)) {
      whats.add(`scripts.${script} changed in ${path}`);
    }
  });
  return [...whats];
}

const cmakeTestLine =
  /\b(?:add_test|enable_testing|set_tests_properties|gtest_discover_tests|gtest_add_tests|catch_discover_tests|doctest_discover_tests)\b|\bBUILD_TESTING\b|\bCTEST_|\bset_property\s*\(\s*TEST\b|\binclude\s*\(\s*(?:CTest|GoogleTest|Catch)|\badd_subdirectory\s*\([^)]*test/i;

function hunkLineWhats(
  file: HunkFile,
  test: (line: HunkLine, index: number) => boolean,
  what: string,
): string[] {
  return file.lines.some((line, index) => line.kind !== ' ' && test(line, index)) ? [what] : [];
}

function hunkConfigWhats(file: HunkFile, path: string): string[] {
  const name = baseName(path);
  const verb = hunkVerb(file);
  const paths = [file.oldPath, file.newPath].filter((p): p is string => p !== null);
  if (paths.some((p) => wholeConfigFiles.some((re) => re.test(p)))) {
    const added = file.lines.filter((l) => l.kind === '+').map((l) => l.text);
    const options = pytestish.test(name) ? narrowingOptions(added) : [];
    return [options.length > 0 ? `${path} adds ${options.join(', ')}` : `${path} ${verb}`];
  }
  const sectioned = projectionFor(path) !== null || isCmake(path);
  if (sectioned && file.binary) return [`${path} ${verb} (not text)`];
  if (name === 'pyproject.toml') return hunkSectionWhats(file, path, tomlRelevance(pyprojectKeys));
  if (name === 'Cargo.toml') return hunkSectionWhats(file, path, tomlRelevance(cargoKeys));
  if (name === 'tox.ini') return hunkSectionWhats(file, path, iniRelevance(toxSections));
  if (name === 'setup.cfg') return hunkSectionWhats(file, path, iniRelevance(setupCfgSections));
  if (name === 'package.json') return hunkPackageJsonWhats(file, path);
  if (isCmake(path)) {
    return hunkLineWhats(
      file,
      (line) => cmakeTestLine.test(line.text),
      `test commands changed in ${path}`,
    );
  }
  if (name === 'pom.xml') {
    const plugin = file.lines.some((line) => /maven-(?:surefire|failsafe)-plugin/.test(line.text));
    return hunkLineWhats(
      file,
      (line) => plugin || mavenTestLine.test(line.text),
      `test settings changed in ${path}`,
    );
  }
  const enclosedBy =
    (re: RegExp) =>
    (line: HunkLine, index: number): boolean =>
      re.test(line.text) || enclosing(file.lines, index).chain.some((scope) => re.test(scope.line));
  if (/\.gradle(?:\.kts)?$/.test(name)) {
    const block =
      /(?<![\w.$])(?:tasks\s*\.\s*)?(?:test|testing|withType\s*[<(]\s*Test\b|named\s*(?:<\s*Test\s*>\s*)?\(\s*["']test["'])/;
    return hunkLineWhats(
      file,
      (line, index) => gradleTestLine.test(line.text) || enclosedBy(block)(line, index),
      `test task configuration changed in ${path}`,
    );
  }
  if (/^vite\.config\.[\w.]+$/.test(name)) {
    return hunkLineWhats(file, enclosedBy(/^\s*test\s*:/), `test options changed in ${path}`);
  }
  if (extensionOf(path) === 'go' && (file.status === 'modified' || file.status === 'renamed')) {
    return file.lines
      .filter((line) => line.kind !== ' ' && goConstraint.test(line.text))
      .map(
        (line) =>
          `build constraint '${line.text.trim()}' ${line.kind === '+' ? 'added' : 'removed'} in ${path}`,
      );
  }
  return [];
}

/**
 * Test edits as far as a diff's hunks show them: configuration files by path, test settings by
 * the section or key the hunk shows, test-named paths, and changed lines that declare tests or sit
 * inside one (by indentation, or by git's hunk-header context). Without whole files this guesses;
 * `testEditsOf` over the files' contents does not.
 */
export function testEditsOfHunks(files: readonly HunkFile[]): readonly TestEdit[] {
  const edits: TestEdit[] = [];
  for (const file of files) {
    const path = file.newPath ?? file.oldPath ?? '';
    const config = hunkConfigWhats(file, path);
    if (config.length > 0) {
      for (const what of config) edits.push({ path, kind: 'test-config', what });
    } else if (isTestPath(file.oldPath) || isTestPath(file.newPath)) {
      edits.push({ path, kind: 'test-file', what: `${path} ${hunkVerb(file)}` });
    } else if (!file.binary) {
      const language = sourceLanguages[extensionOf(path)];
      if (language === undefined) continue;
      const whats = hunkInSourceWhats(file, path, language);
      for (const what of whats.slice(0, MAX_EDITS_PER_FILE)) {
        edits.push({ path, kind: 'test-in-source', what });
      }
      if (whats.length > MAX_EDITS_PER_FILE) {
        const what = `${whats.length - MAX_EDITS_PER_FILE} more test edits in ${path}`;
        edits.push({ path, kind: 'test-in-source', what });
      }
    }
  }
  return edits;
}
