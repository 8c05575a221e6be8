/** The test parts of build files: CMake test commands, Maven surefire, Gradle test tasks, Vite. */

import { CODE, lex } from './lexer';
import { multisetDiff } from './text';

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

export function cmakeWhats(path: string, before: string | null, after: string | null): string[] {
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

export const mavenTestLine =
  /skipTests|skipITs|maven\.test\.|testFailureIgnore|<testSourceDirectory|surefire\.|failsafe\./;

/** Surefire/Failsafe plugin elements and test-skipping properties of a `pom.xml`. */
export function mavenProjection(text: string): Map<string, string[]> {
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
export const gradleTestLine =
  /\b(?:exclude|include)TestsMatching\b|\bignoreFailures\b|\bskipTests\b/;

export function gradleProjection(text: string): Map<string, string[]> {
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
export function viteProjection(text: string): Map<string, string[]> {
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
