/**
 * Ordinary source files whose added lines reach into the test framework (see `frameworkRules`):
 * from whole files (lines of the new text the old one lacks) or from a diff's hunks (its `+`
 * lines, read with the hunk's context).
 */

import { frameworkRules, ruleTriggers, type FrameworkRule } from './framework-rules';
import type { HunkFile } from './hunk-lines';
import { MAX_EDITS_PER_FILE, testBlockSpans, type TestScope } from './in-source';
import { sourceViews, type RuleLanguage } from './source-views';
import { extensionOf, isTestPath } from './test-paths';
import { isBinary } from './text';
import type { TestEdit } from './types';

const ruleLanguages: Readonly<Record<string, RuleLanguage>> = {
  py: 'python',
  // site-packages `.pth` files run their `import` lines at every interpreter start.
  pth: 'python',
  js: 'js',
  jsx: 'js',
  ts: 'js',
  tsx: 'js',
  mjs: 'js',
  cjs: 'js',
  mts: 'js',
  cts: 'js',
  rs: 'rust',
  go: 'go',
};

/** A run of consecutive lines of the new text; `added` by line, `first` the first line's number. */
interface Segment {
  readonly lines: readonly string[];
  readonly added: readonly boolean[];
  readonly first: number;
  /** Line numbers when they do not simply count up from `first` (a hunk's, from the diff). */
  readonly numbers?: readonly number[];
}

// Directories and files that are a program's entry point rather than library code.
const entryDirectory = /^(?:bin|cmd|scripts?|tools|examples?|benches|cli)$/;
const entryFile =
  /^(?:__main__\.py|setup\.py|manage\.py|build\.rs|main\.(?:rs|go|py|[cm]?[jt]sx?)|cli\.(?:py|[cm]?[jt]sx?))$/;

// What marks a file as a program when the file already had it: a hypothesis that adds one to a
// library module does not make that module a program.
const programMarkers: Readonly<Record<RuleLanguage, RegExp>> = {
  js: /^#!|\bprocess\s*\.\s*argv\b|\brequire\s*\.\s*main\s*===?\s*module\b|\bimport\s*\.\s*meta\s*\.\s*main\b/,
  python: /^#!|\b__name__\s*==\s*['"]__main__['"]/,
  rust: /^fn\s+main\s*\(/m,
  go: /^\s*package\s+main\b/m,
};

/**
 * Whether the file is a program's entry point: by its path, by a Go file's `package main` (which
 * nothing imports), or by what its old text shows.
 */
function isEntryPoint(path: string, language: RuleLanguage, old: string, seen: string): boolean {
  const parts = path.split('/');
  const name = parts.pop() ?? '';
  if (entryFile.test(name) || parts.some((part) => entryDirectory.test(part))) return true;
  if (language === 'rust' && parts.join('/').endsWith('src/bin')) return true;
  if (language === 'go') return programMarkers.go.test(seen);
  return programMarkers[language].test(old);
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The index of the line holding offset `at` (binary search over `starts`). */
function lineAt(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

interface Hit {
  readonly rule: FrameworkRule;
  readonly line: number;
  readonly snippet: string;
}

function hitsIn(segment: Segment, rules: readonly FrameworkRule[], language: RuleLanguage): Hit[] {
  const trigger = ruleTriggers[language];
  if (!segment.lines.some((line, i) => segment.added[i] === true && trigger.test(line))) return [];
  const raw = segment.lines.join('\n');
  const views = sourceViews(raw, language);
  const starts = lineStarts(raw);
  const hits: Hit[] = [];
  for (const rule of rules) {
    for (const { view, re } of rule.patterns) {
      for (const match of views[view].matchAll(re)) {
        if (view === 'text' && views.code.charAt(match.index) !== views.text.charAt(match.index)) {
          continue;
        }
        const from = lineAt(starts, match.index);
        const to = lineAt(starts, match.index + Math.max(0, match[0].length - 1));
        for (let i = from; i <= to; i += 1) {
          if (segment.added[i] !== true) continue;
          hits.push({
            rule,
            line: segment.numbers?.[i] ?? segment.first + i,
            snippet: (segment.lines[i] ?? '').trim().slice(0, 100),
          });
          break;
        }
      }
    }
  }
  return hits;
}

/** One edit per rule that fired in the file: its first added line, and how many more it had. */
function editsOf(path: string, hits: readonly Hit[]): TestEdit[] {
  const byRule = new Map<string, Hit[]>();
  for (const hit of [...hits].sort((a, b) => a.line - b.line)) {
    const seen = byRule.get(hit.rule.id) ?? [];
    if (!seen.some((h) => h.line === hit.line)) seen.push(hit);
    byRule.set(hit.rule.id, seen);
  }
  const edits: TestEdit[] = [];
  for (const [id, ruleHits] of byRule) {
    const [first] = ruleHits;
    if (first === undefined) continue;
    const more =
      ruleHits.length > 1
        ? ` (and ${ruleHits.length - 1} more line${ruleHits.length > 2 ? 's' : ''})`
        : '';
    edits.push({
      path,
      kind: 'test-framework',
      rule: id,
      line: first.line,
      what: `${path}:${first.line} ${first.rule.does} (rule ${id}): '${first.snippet}'${more}`,
    });
  }
  return edits.slice(0, MAX_EDITS_PER_FILE);
}

function rulesFor(
  path: string,
  language: RuleLanguage,
  old: string,
  seen: string,
): FrameworkRule[] {
  const entry = isEntryPoint(path, language, old, seen);
  return frameworkRules.filter(
    (rule) => rule.language === language && (rule.scope === 'any' || !entry),
  );
}

const languageOf = (path: string): RuleLanguage | undefined =>
  isTestPath(path) ? undefined : ruleLanguages[extensionOf(path)];

/** Lines of `after` that `before` lacks (by trimmed text, as a multiset), as flags by line. */
function addedFlags(before: readonly string[], after: readonly string[]): boolean[] {
  const counts = new Map<string, number>();
  for (const line of before) counts.set(line.trim(), (counts.get(line.trim()) ?? 0) + 1);
  return after.map((line) => {
    const left = counts.get(line.trim()) ?? 0;
    if (left === 0) return line.trim() !== '';
    counts.set(line.trim(), left - 1);
    return false;
  });
}

/**
 * What an ordinary source file's new lines do to the test framework, from its whole text before
 * and after. Test files (by path) are not read: reaching into the framework is what they do.
 */
export function frameworkReachOf(
  path: string,
  before: string | null,
  after: string | null,
  scope: TestScope,
): TestEdit[] {
  const language = languageOf(path);
  if (language === undefined || after === null || isBinary(after)) return [];
  if (before !== null && isBinary(before)) return [];
  // Most files hold none of the rules' words anywhere: nothing to compare.
  if (!ruleTriggers[language].test(after)) return [];
  const lines = after.split('\n');
  const added = addedFlags(before === null ? [] : before.split('\n'), lines);
  if (!added.includes(true)) return [];
  const rules = rulesFor(path, language, before ?? '', after);
  const hits = hitsIn({ lines, added, first: 1 }, rules, language);
  if (hits.length === 0) return [];
  // Tests inside the file may use the framework: they are test edits of their own kind.
  const starts = lineStarts(after);
  const inTests = new Set<number>();
  for (const [start, end] of testBlockSpans(path, after, scope)) {
    const last = lineAt(starts, Math.max(start, end - 1));
    for (let i = lineAt(starts, start); i <= last; i += 1) inTests.add(i + 1);
  }
  return editsOf(
    path,
    hits.filter((hit) => !inTests.has(hit.line)),
  );
}

/**
 * The same from a diff's hunks: each hunk's new side, its `+` lines added but those `inTest`
 * says belong to a test in the file (by the line's index in `file.lines`).
 */
export function hunkFrameworkReach(
  file: HunkFile,
  path: string,
  inTest: (index: number) => boolean,
): TestEdit[] {
  const language = languageOf(path);
  if (language === undefined || file.binary || file.newPath === null) return [];
  const segments: { lines: string[]; added: boolean[]; numbers: number[] }[] = [];
  let current: (typeof segments)[number] | null = null;
  let hunk = -1;
  for (const [index, line] of file.lines.entries()) {
    if (line.kind === '-') continue;
    if (current === null || line.hunk !== hunk) {
      current = { lines: [], added: [], numbers: [] };
      segments.push(current);
      hunk = line.hunk;
    }
    current.lines.push(line.text);
    current.added.push(line.kind === '+' && !inTest(index));
    current.numbers.push(line.newLine ?? 0);
  }
  const seen = segments.map((s) => s.lines.join('\n')).join('\n');
  // The old side as far as the hunks show it; a shebang only on the file's first line.
  const oldLines = file.lines.filter((l) => l.kind !== '+').map((l) => l.text);
  const old = oldLines.filter((text, i) => i === 0 || !text.startsWith('#!')).join('\n');
  const rules = rulesFor(path, language, old, seen);
  const hits = segments.flatMap((s) => hitsIn({ ...s, first: s.numbers[0] ?? 1 }, rules, language));
  return editsOf(path, hits);
}
