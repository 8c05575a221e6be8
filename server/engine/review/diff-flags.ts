import {
  isTestPath,
  testEditsOf,
  testEditsOfHunks,
  type FileChange,
  type TestEdit,
} from './test-edits';

export { isTestPath };

/**
 * Structural facts about a diff that a reviewer must not miss, computed from the diff text alone
 * (and `testEdits` from the files' contents where the caller has them).
 * (Implementation: see diffFlags below.)
 */
export interface DiffFlags {
  /** Files changed, lines added and removed, bytes of the diff. */
  readonly files: number;
  readonly additions: number;
  readonly deletions: number;
  readonly bytes: number;
  /** Test files (by path convention) the diff adds, changes or deletes. */
  readonly testFiles: readonly string[];
  /** Test files deleted outright, and test cases removed from files that remain. */
  readonly deletedTests: readonly { readonly path: string; readonly what: string }[];
  /**
   * Added lines that stop tests from running: skip/ignore markers, and focus markers (`it.only`,
   * `fdescribe`) that silently skip every other test in the run. Always set by `diffFlags`;
   * optional so flags stored before it existed still parse.
   */
  readonly disabledTests?: readonly {
    readonly path: string;
    readonly line: number;
    readonly what: string;
  }[];
  /**
   * `old mode`/`new mode` changes, executable bit in particular; also files created or deleted
   * with a mode other than 100644 (`from`/`to` is `000000` for the side where the file is absent).
   */
  readonly modeChanges: readonly {
    readonly path: string;
    readonly from: string;
    readonly to: string;
  }[];
  readonly binaryFiles: readonly string[];
  readonly symlinks: readonly string[];
  /**
   * Added lines that hold bidirectional-override or other invisible control characters. `line` is
   * the line number in the new file; 0 means the file's path itself holds them.
   */
  readonly hiddenCharacters: readonly {
    readonly path: string;
    readonly line: number;
    readonly codePoints: readonly string[];
  }[];
  /** Over the size a reviewer can read in one sitting (many files or lines). */
  readonly large: boolean;
  /**
   * Changes to tests wherever they live: test-named files, files that configure how tests are
   * collected or run, and tests inside ordinary source files (see `testEditsOf`). Exact when
   * `diffFlags` was given the files' contents, otherwise as far as the hunks show. Always set by
   * `diffFlags`; optional so flags stored before it existed still parse.
   */
  readonly testEdits?: readonly TestEdit[];
}

export interface DiffFlagsOptions {
  /**
   * The changed files' contents before and after. With them `testEdits` compares whole test
   * blocks and configuration sections; without them it reads what the hunks show.
   */
  readonly files?: readonly FileChange[];
}

/** One line of a hunk: context, removed or added. `newLine` is its number in the new file (0 for removed). */
export interface DiffLine {
  readonly kind: ' ' | '-' | '+';
  readonly text: string;
  readonly newLine: number;
  readonly hunk: number;
}

/** One file's section of a git diff. Paths are unquoted, without their `a/`/`b/` prefix. */
export interface DiffFile {
  /** null when the file is created (`/dev/null`). */
  readonly oldPath: string | null;
  /** null when the file is deleted. */
  readonly newPath: string | null;
  readonly oldMode: string | null;
  readonly newMode: string | null;
  readonly status: 'added' | 'deleted' | 'modified' | 'renamed' | 'copied';
  readonly binary: boolean;
  readonly additions: number;
  readonly deletions: number;
  readonly lines: readonly DiffLine[];
  /** The text after each hunk's `@@ … @@` (git's guess at the enclosing function), by hunk. */
  readonly hunkContexts: readonly string[];
}

export const LARGE_FILES = 50;
export const LARGE_LINES = 5000;

interface FileBuilder {
  headerA: string | null;
  headerB: string | null;
  oldPath: string | null | undefined;
  newPath: string | null | undefined;
  oldMode: string | null;
  newMode: string | null;
  status: DiffFile['status'] | null;
  binary: boolean;
  additions: number;
  deletions: number;
  lines: DiffLine[];
  hunks: number;
  hunkContexts: string[];
}

const newBuilder = (headerA: string | null, headerB: string | null): FileBuilder => ({
  headerA,
  headerB,
  oldPath: undefined,
  newPath: undefined,
  oldMode: null,
  newMode: null,
  status: null,
  binary: false,
  additions: 0,
  deletions: 0,
  lines: [],
  hunks: 0,
  hunkContexts: [],
});

function finish(file: FileBuilder): DiffFile {
  const oldPath = file.oldPath === undefined ? file.headerA : file.oldPath;
  const newPath = file.newPath === undefined ? file.headerB : file.newPath;
  const status =
    file.status ?? (oldPath === null ? 'added' : newPath === null ? 'deleted' : 'modified');
  return {
    oldPath: status === 'added' ? null : (oldPath ?? newPath),
    newPath: status === 'deleted' ? null : (newPath ?? oldPath),
    oldMode: file.oldMode,
    newMode: file.newMode,
    status,
    binary: file.binary,
    additions: file.additions,
    deletions: file.deletions,
    lines: file.lines,
    hunkContexts: file.hunkContexts,
  };
}

const escapes: Readonly<Record<string, number>> = {
  a: 7,
  b: 8,
  t: 9,
  n: 10,
  v: 11,
  f: 12,
  r: 13,
  '"': 34,
  '\\': 92,
};

/** Git's C-style quoted name starting at `start` (a `"`): the name and the index after it. */
function unquote(text: string, start: number): { value: string; end: number } | null {
  const bytes: number[] = [];
  let i = start + 1;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === '"') return { value: Buffer.from(bytes).toString('utf8'), end: i + 1 };
    if (c === '\\') {
      const next = text.charAt(i + 1);
      const octal = /^[0-3][0-7]{2}/.exec(text.slice(i + 1, i + 4));
      if (octal !== null) {
        bytes.push(parseInt(octal[0], 8));
        i += 4;
        continue;
      }
      bytes.push(escapes[next] ?? next.charCodeAt(0));
      i += 2;
      continue;
    }
    const codePoint = text.codePointAt(i) ?? 0;
    const char = String.fromCodePoint(codePoint);
    bytes.push(...Buffer.from(char, 'utf8'));
    i += char.length;
  }
  return null;
}

/** `a/x` → `x` (git apply's -p1); `/dev/null` → null. */
function stripPrefix(path: string): string | null {
  if (path === '/dev/null') return null;
  const slash = path.indexOf('/');
  return slash < 0 ? path : path.slice(slash + 1);
}

/** A name on a `---`/`+++`/`rename from` line: quoted, or up to a tab (git adds one after spaces). */
function headerName(text: string, prefixed: boolean): string | null {
  let name = text;
  if (text.startsWith('"')) name = unquote(text, 0)?.value ?? text;
  else if (text.includes('\t')) name = text.slice(0, text.indexOf('\t'));
  return prefixed ? stripPrefix(name) : name;
}

/**
 * The two names of a `diff --git` line. Unquoted names may hold spaces, so the split is where both
 * halves name the same file (as git does); a rename with spaces is left to `rename from/to`.
 */
function gitHeaderNames(rest: string): { a: string | null; b: string | null } {
  if (rest.startsWith('"')) {
    const a = unquote(rest, 0);
    if (a === null) return { a: null, b: null };
    const tail = rest.slice(a.end).replace(/^ /, '');
    return { a: stripPrefix(a.value), b: headerName(tail, true) };
  }
  const quotedB = rest.indexOf(' "');
  if (quotedB >= 0) {
    return { a: stripPrefix(rest.slice(0, quotedB)), b: headerName(rest.slice(quotedB + 1), true) };
  }
  for (let space = rest.indexOf(' '); space >= 0; space = rest.indexOf(' ', space + 1)) {
    const a = stripPrefix(rest.slice(0, space));
    const b = stripPrefix(rest.slice(space + 1));
    if (a === b) return { a, b };
  }
  return { a: null, b: null };
}

const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

/**
 * Splits a git diff (or a `git format-patch` mail, or a plain unified diff) into files. Hunks are
 * read by their line counts, so a removed line that reads `--- x` or a mail signature `-- ` is
 * never mistaken for a header. Never throws: anything it does not understand is skipped.
 */
export function parseDiff(text: string): DiffFile[] {
  const lines = text.split('\n');
  const files: DiffFile[] = [];
  let file: FileBuilder | null = null;
  let inHeader = false;
  const close = (): void => {
    if (file !== null) files.push(finish(file));
    file = null;
  };
  let i = 0;
  while (i < lines.length) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    if (line.startsWith('diff --git ')) {
      close();
      const names = gitHeaderNames(line.slice('diff --git '.length));
      file = newBuilder(names.a, names.b);
      inHeader = true;
      i += 1;
      continue;
    }
    if (
      !inHeader &&
      line.startsWith('--- ') &&
      (lines[i + 1] ?? '').startsWith('+++ ') &&
      (lines[i + 2] ?? '').startsWith('@@ ')
    ) {
      // A plain unified diff: no `diff --git` line, names on the `---`/`+++` lines only.
      close();
      file = newBuilder(null, null);
      inHeader = true;
      continue;
    }
    const hunk = hunkHeader.exec(line);
    if (file !== null && hunk !== null) {
      inHeader = false;
      i = readHunk(lines, i + 1, hunk, file);
      continue;
    }
    if (file !== null && inHeader) readHeaderLine(line, file);
    i += 1;
  }
  close();
  return files;
}

function readHeaderLine(line: string, file: FileBuilder): void {
  const field = (prefix: string): string | null =>
    line.startsWith(prefix) ? line.slice(prefix.length) : null;
  let value: string | null;
  if ((value = field('old mode ')) !== null) file.oldMode = value.trim();
  else if ((value = field('new mode ')) !== null) file.newMode = value.trim();
  else if ((value = field('deleted file mode ')) !== null) {
    file.oldMode = value.trim();
    file.status = 'deleted';
  } else if ((value = field('new file mode ')) !== null) {
    file.newMode = value.trim();
    file.status = 'added';
  } else if ((value = field('rename from ')) !== null) {
    file.oldPath = headerName(value, false);
    file.status = 'renamed';
  } else if ((value = field('rename to ')) !== null) file.newPath = headerName(value, false);
  else if ((value = field('copy from ')) !== null) {
    file.oldPath = headerName(value, false);
    file.status = 'copied';
  } else if ((value = field('copy to ')) !== null) file.newPath = headerName(value, false);
  else if ((value = field('--- ')) !== null) file.oldPath = headerName(value, true);
  else if ((value = field('+++ ')) !== null) file.newPath = headerName(value, true);
  else if ((value = field('index ')) !== null) {
    const mode = /^\S+ (\d{6})$/.exec(value.trim());
    if (mode?.[1] !== undefined) {
      file.oldMode ??= mode[1];
      file.newMode ??= mode[1];
    }
  } else if (line === 'GIT binary patch' || /^Binary files .* differ$/.test(line)) {
    file.binary = true;
  }
}

function readHunk(
  lines: readonly string[],
  start: number,
  header: RegExpExecArray,
  file: FileBuilder,
): number {
  let oldLeft = header[2] === undefined ? 1 : Number(header[2]);
  let newLeft = header[4] === undefined ? 1 : Number(header[4]);
  let newLine = Number(header[3]);
  const hunk = file.hunks++;
  file.hunkContexts.push(header[5] ?? '');
  let i = start;
  while (i < lines.length && (oldLeft > 0 || newLeft > 0)) {
    const line = lines[i] ?? '';
    const kind = line.charAt(0);
    if (kind === ' ' || line === '' || line === '\r') {
      // Some tools strip the space of an empty context line; git apply accepts that too.
      file.lines.push({ kind: ' ', text: line.slice(1), newLine, hunk });
      oldLeft -= 1;
      newLeft -= 1;
      newLine += 1;
    } else if (kind === '-') {
      file.lines.push({ kind: '-', text: line.slice(1), newLine: 0, hunk });
      file.deletions += 1;
      oldLeft -= 1;
    } else if (kind === '+') {
      file.lines.push({ kind: '+', text: line.slice(1), newLine, hunk });
      file.additions += 1;
      newLeft -= 1;
      newLine += 1;
    } else if (kind !== '\\') {
      break; // a short hunk: the rest is read as headers again
    }
    i += 1;
  }
  while (i < lines.length && (lines[i] ?? '').startsWith('\\')) i += 1;
  return i;
}

// Declarations of one test case; the capture (if any) names it.
const namedDeclarations = [
  /^\s*(?:async\s+)?def\s+(test(?:_\w*|[A-Z0-9]\w*)?)\b/, // pytest, unittest, minitest
  /^\s*class\s+(Test(?:[A-Z0-9_]\w*)?)\s*[(:]/,
  /^\s*func\s+(?:\([^)]*\)\s*)?((?:Test|Fuzz)(?:[A-Z0-9_]\w*)?)\s*\(/, // Go, testify suites
  /^\s*[xf]?(?:it|test|describe)\b(?:\.[A-Za-z]+)*\s*\(\s*(?:(['"`])(.*?)\1)?/, // Jest, Vitest, Mocha
  /^\s*(?:it|specify)\s+(['"])(.*?)\1\s*(?:do|\{)/, // RSpec
];
// Attributes that make the following function a test.
const testAttributes = [
  /^\s*#\[(?:\w+::)*(?:test|rstest|test_case)\b/, // Rust
  /^\s*@(?:[\w.]+\.)?(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b/, // JUnit
  /^\s*\[\s*(?:Fact|Theory|Test|TestMethod|TestCase)\b/, // xUnit, NUnit, MSTest
];
const disablingMarkers = [
  /^\s*#\[ignore\b/,
  /^\s*@(?:[\w.]+\.)?(?:Ignore|Disabled)\b/,
  /^\s*@(?:pytest\.mark\.(?:skip|skipif|xfail)|unittest\.(?:skip\w*|expectedFailure))\b/,
  /\b(?:pytest\.skip|self\.skipTest)\s*\(/,
  /\b(?:t|b|f|tb)\.Skip(?:f|Now)?\(/, // Go (not C#'s LINQ `.Skip(n)`)
  /^\s*\[\s*(?:Ignore\b|(?:Fact|Theory)\s*\(\s*Skip\s*=)/,
  /^\s*(?:x(?:it|test|describe)|f(?:it|describe))\s*\(/,
  /^\s*(?:it|test|describe)\.(?:skip|only|todo|skipIf)\b/,
];

const attributeOrTrivia = /^\s*(?:$|#\[|@|\[|\/\/|\/\*|\*)/;
const functionName = /(\w+)\s*(?:<[^>()]*>)?\s*\(/;

/** The key of a test declared at `index` (same-kind lines after it, up to 8, name an attribute's fn). */
function testKey(lines: readonly DiffLine[], index: number): string | null {
  const line = lines[index];
  if (line === undefined) return null;
  for (const re of namedDeclarations) {
    const match = re.exec(line.text);
    if (match !== null) return `${re.source}:${match[2] ?? match[1] ?? line.text.trim()}`;
  }
  for (const re of testAttributes) {
    const match = re.exec(line.text);
    if (match === null) continue;
    // `#[test_case(1)] fn f()`, `@Test(timeout = 5) void f()`: skip the attribute's own arguments.
    const sameLine = line.text
      .slice(match[0].length)
      .replace(/^\s*\([^)]*\)/, '')
      .replace(/^\s*\]/, '');
    let name = functionName.exec(sameLine)?.[1];
    for (let j = index + 1; name === undefined && j < lines.length && j <= index + 8; j += 1) {
      const next = lines[j];
      if (next === undefined || next.hunk !== line.hunk) break;
      if (next.kind !== ' ' && next.kind !== line.kind) continue;
      if (attributeOrTrivia.test(next.text)) continue;
      name = functionName.exec(next.text)?.[1] ?? '';
    }
    return `${re.source}:${name ?? ''}`;
  }
  return null;
}

const testMarkers = [...namedDeclarations, ...testAttributes, ...disablingMarkers];
const isTestMarker = (text: string): boolean => testMarkers.some((re) => re.test(text));

// Bidi controls, zero-width and other invisible format characters, C0/C1 controls except tab,
// line/paragraph separators, and Unicode tag characters (invisible ASCII look-alikes).
const hiddenCharacter =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/gu;

function hiddenCodePoints(text: string): string[] {
  const found = new Set<string>();
  // A CR that ends the line is a CRLF line ending, not a hidden character.
  for (const match of text.replace(/\r$/, '').matchAll(hiddenCharacter)) {
    const codePoint = match[0].codePointAt(0) ?? 0;
    found.add(`U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`);
  }
  return [...found];
}

const displayPath = (file: DiffFile): string => file.newPath ?? file.oldPath ?? '';

/** Test cases removed from a file that remains: removed declarations not re-added under the same name. */
function removedTestCases(file: DiffFile): string[] {
  const added = new Map<string, number>();
  file.lines.forEach((line, index) => {
    if (line.kind !== '+') return;
    const key = testKey(file.lines, index);
    if (key !== null) added.set(key, (added.get(key) ?? 0) + 1);
  });
  const removed: string[] = [];
  file.lines.forEach((line, index) => {
    if (line.kind !== '-') return;
    const key = testKey(file.lines, index);
    if (key === null) return;
    const left = added.get(key) ?? 0;
    if (left > 0) added.set(key, left - 1);
    else removed.push(line.text.trim());
  });
  return removed;
}

/**
 * The structural flags of a git-format unified diff. Never throws. `options.files`, the changed
 * files' contents, makes `testEdits` exact.
 */
export function diffFlags(diff: string | Uint8Array, options: DiffFlagsOptions = {}): DiffFlags {
  const text =
    typeof diff === 'string'
      ? diff
      : Buffer.from(diff.buffer, diff.byteOffset, diff.byteLength).toString('utf8');
  const files = parseDiff(text);
  const testFiles: string[] = [];
  const seenTestFiles = new Set<string>();
  const deletedTests: { path: string; what: string }[] = [];
  const disabledTests: { path: string; line: number; what: string }[] = [];
  const modeChanges: { path: string; from: string; to: string }[] = [];
  const binaryFiles: string[] = [];
  const symlinks: string[] = [];
  const hiddenCharacters: { path: string; line: number; codePoints: string[] }[] = [];
  let additions = 0;
  let deletions = 0;
  for (const file of files) {
    const path = displayPath(file);
    additions += file.additions;
    deletions += file.deletions;
    const changed = file.lines.filter((line) => line.kind !== ' ');
    if (
      isTestPath(file.oldPath) ||
      isTestPath(file.newPath) ||
      changed.some((line) => isTestMarker(line.text))
    ) {
      if (!seenTestFiles.has(path)) testFiles.push(path);
      seenTestFiles.add(path);
      if (file.status === 'deleted') deletedTests.push({ path, what: 'file' });
      else for (const what of removedTestCases(file)) deletedTests.push({ path, what });
    }
    for (const line of changed) {
      if (line.kind === '+' && disablingMarkers.some((re) => re.test(line.text))) {
        disabledTests.push({ path, line: line.newLine, what: line.text.trim() });
      }
    }
    if (file.status === 'added' && file.newMode !== null && file.newMode !== '100644') {
      modeChanges.push({ path, from: '000000', to: file.newMode });
    } else if (file.status === 'deleted' && file.oldMode !== null && file.oldMode !== '100644') {
      modeChanges.push({ path, from: file.oldMode, to: '000000' });
    } else if (file.oldMode !== null && file.newMode !== null && file.oldMode !== file.newMode) {
      modeChanges.push({ path, from: file.oldMode, to: file.newMode });
    }
    if (file.binary) binaryFiles.push(path);
    if (file.oldMode === '120000' || file.newMode === '120000') symlinks.push(path);
    const inPath = hiddenCodePoints(`${file.oldPath ?? ''}${file.newPath ?? ''}`);
    if (inPath.length > 0) hiddenCharacters.push({ path, line: 0, codePoints: inPath });
    for (const line of changed) {
      if (line.kind !== '+') continue;
      const codePoints = hiddenCodePoints(line.text);
      if (codePoints.length > 0) hiddenCharacters.push({ path, line: line.newLine, codePoints });
    }
  }
  return {
    files: files.length,
    additions,
    deletions,
    bytes: typeof diff === 'string' ? Buffer.byteLength(diff, 'utf8') : diff.byteLength,
    testFiles,
    deletedTests,
    disabledTests,
    modeChanges,
    binaryFiles,
    symlinks,
    hiddenCharacters,
    large: files.length > LARGE_FILES || additions + deletions > LARGE_LINES,
    testEdits: options.files === undefined ? testEditsOfHunks(files) : testEditsOf(options.files),
  };
}
