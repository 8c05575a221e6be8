/** Test settings in a diff's hunks of TOML, INI and package.json files, by the section shown. */

import { linesAbove, type HunkFile } from './hunk-lines';
import { testScript } from './package-json';
import { narrowingOptions } from './pytest-options';
import { anyOf, normalKey, tomlKey } from './toml-ini';

const tomlOrIniHeader = /^\s*(\[\[?)([^[\]]+)\]\]?\s*(?:[#;].*)?$/;
const pytestSetting =
  /^\s*(?:addopts|testpaths|python_files|python_classes|python_functions|norecursedirs|harness|autotests|doctest)\s*=/;

export interface Section {
  readonly table: string;
  readonly array: boolean;
}

/**
 * TOML/INI in a diff: the section of each changed line, as far as the hunk shows it (one pass,
 * the old and the new side each keeping the last header it has seen in the hunk).
 */
export function hunkSectionWhats(
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

export function tomlRelevance(patterns: readonly RegExp[]) {
  const test = anyOf(patterns);
  return (section: Section | null, key: string | null): string | null => {
    const table = section?.table ?? '';
    if (section !== null && test(table)) return sectionHeader(section);
    const full = table === '' ? (key ?? '') : key === null ? table : `${table}.${key}`;
    if (full === '' || !test(full)) return null;
    return section === null ? full : `${sectionHeader(section)} ${key ?? ''}`.trim();
  };
}

export const iniRelevance =
  (sections: (name: string) => boolean) =>
  (section: Section | null): string | null => {
    const name = section?.table.toLowerCase() ?? '';
    return section !== null && sections(name) ? `[${name}]` : null;
  };

const jsonKey = /^\s*"((?:[^"\\]|\\.)*)"\s*:/;

/** package.json in a diff: changed lines under a test key, as far as the hunk shows the nesting. */
export function hunkPackageJsonWhats(file: HunkFile, path: string): string[] {
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
