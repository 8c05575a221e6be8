import { parseDiff, type DiffFile, type DiffLine } from './git-diff';
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

export const LARGE_FILES = 50;
export const LARGE_LINES = 5000;

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
