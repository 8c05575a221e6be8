/** From a diff alone: what its hunks show, without the files' whole contents. */

import { gradleTestLine, mavenTestLine } from './build-files';
import { hunkFrameworkReach } from './framework-reach';
import { goConstraint } from './go';
import { enclosing, hunkVerb, type HunkFile, type HunkLine } from './hunk-lines';
import {
  hunkPackageJsonWhats,
  hunkSectionWhats,
  iniRelevance,
  tomlRelevance,
} from './hunk-sections';
import { MAX_EDITS_PER_FILE, sourceLanguages, type SourceLanguage } from './in-source';
import { narrowingOptions, pytestish } from './pytest-options';
import { isCmake, projectionFor, wholeConfigFiles } from './test-config';
import { baseName, extensionOf, isTestPath } from './test-paths';
import { cargoKeys, pyprojectKeys, setupCfgSections, toxSections } from './toml-ini';
import type { TestEdit } from './types';

// Lines that declare tests (or mark them) in ordinary source files, by language. A diff carries
// no runner configuration: Python and JS names count as in every file (the review page's flags
// are shown to a person, who can tell a library's `TestOperation`). Go's `TestXxx` never counts
// outside `_test.go` files (test files by path): `go test` runs no other.
const sourceMarkers: Readonly<Record<SourceLanguage, RegExp>> = {
  rust: /^\s*(?:#!?\[\s*(?:cfg\s*\([^)]*\btest\b|(?:[A-Za-z_]\w*\s*::\s*)*(?:test|bench|rstest|test_case|quickcheck|proptest|wasm_bindgen_test)\b)|(?:pub(?:\([^)]*\))?\s+)?mod\s+tests?\b|proptest!)/,
  python: /^\s*(?:(?:async\s+)?def\s+test\w*\s*\(|class\s+Test\w*\s*[(:])/,
  js: /(?<![\w$.])(?:[xf]?(?:describe|it|test)|suite|specify)(?:\s*\.\s*[A-Za-z]+)*\s*[(`]|\bimport\.meta\.vitest\b/,
  go: /(?!)/,
};

/**
 * Whether the changed line at `index` declares a test, sits inside one (by indentation, or by
 * git's hunk-header context), or decorates one (Python decorators, Rust attributes above it).
 */
function isTestLine(file: HunkFile, index: number, language: SourceLanguage): boolean {
  const marker = sourceMarkers[language];
  const line = file.lines[index];
  if (line === undefined) return false;
  if (marker.test(line.text)) return true;
  const { chain, resolved } = enclosing(file.lines, index);
  if (chain.some((scope) => marker.test(scope.line) || scope.above.some((t) => marker.test(t)))) {
    return true;
  }
  if (!resolved && marker.test(file.hunkContexts?.[line.hunk] ?? '')) return true;
  for (let j = index; j < file.lines.length && j < index + 8; j += 1) {
    const next = file.lines[j];
    if (next === undefined || next.hunk !== line.hunk) break;
    if (next.kind !== ' ' && next.kind !== line.kind) continue;
    if (marker.test(next.text)) return true;
    if (!/^\s*(?:@|#\[)/.test(next.text)) break;
  }
  return false;
}

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
      if (language === undefined) {
        edits.push(...hunkFrameworkReach(file, path, () => false));
        continue;
      }
      const whats = hunkInSourceWhats(file, path, language);
      for (const what of whats.slice(0, MAX_EDITS_PER_FILE)) {
        edits.push({ path, kind: 'test-in-source', what });
      }
      if (whats.length > MAX_EDITS_PER_FILE) {
        const what = `${whats.length - MAX_EDITS_PER_FILE} more test edits in ${path}`;
        edits.push({ path, kind: 'test-in-source', what });
      }
      edits.push(...hunkFrameworkReach(file, path, (i) => isTestLine(file, i, language)));
    }
  }
  return edits;
}
