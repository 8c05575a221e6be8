/** Tests inside ordinary source files, per language, compared block by block before and after. */

import { compareBlocks, keyedBlocks, type BlockSet, type Keyed } from './blocks';
import type { PythonNames } from './collection';
import { jsBlocks } from './javascript';
import { pythonBlocks } from './python';
import { rustBlocks } from './rust';
import { extensionOf } from './test-paths';
import { isBinary, multisetDiff } from './text';

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

export type SourceLanguage = 'rust' | 'python' | 'js' | 'go';

export const sourceLanguages: Readonly<Record<string, SourceLanguage>> = {
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

/**
 * Where tests are looked for in one file. `byName`: a runner collects the file, so functions and
 * classes named as tests are tests (Python's, JS's `describe`/`it`/`test`); elsewhere only
 * markers that are not names make tests (Rust's attributes, `import.meta.vitest`, doc examples).
 */
export interface TestScope {
  readonly byName: boolean;
  readonly python: PythonNames;
}

const pythonNone: BlockSet = { blocks: [], separator: '.', qualified: true };
const goNone: BlockSet = { blocks: [], separator: '.', qualified: false };

const blocksOf: Readonly<Record<SourceLanguage, (text: string, scope: TestScope) => BlockSet>> = {
  rust: (text) => rustBlocks(text),
  python: (text, scope) => (scope.byName ? pythonBlocks(text, scope.python) : pythonNone),
  js: (text, scope) => jsBlocks(text, scope.byName),
  // `go test` runs `TestXxx` functions of `_test.go` files only (test files by path): one named
  // so in any other file is the package's own function.
  go: () => goNone,
};

export const MAX_EDITS_PER_FILE = 20;

/** Where the tests inside an ordinary source file lie: [start, end) offsets of each test block. */
export function testBlockSpans(path: string, text: string, scope: TestScope): [number, number][] {
  const language = sourceLanguages[extensionOf(path)];
  if (language === undefined || isBinary(text)) return [];
  return blocksOf[language](text, scope).blocks.map((b) => [b.start, b.end]);
}

export function inSourceWhats(
  path: string,
  before: string | null,
  after: string | null,
  scope: TestScope,
): string[] {
  const language = sourceLanguages[extensionOf(path)];
  if (language === undefined) return [];
  if ((before !== null && isBinary(before)) || (after !== null && isBinary(after))) return [];
  const find = blocksOf[language];
  const keyed = (text: string | null): Map<string, Keyed> =>
    text === null ? new Map<string, Keyed>() : keyedBlocks(text, find(text, scope));
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
