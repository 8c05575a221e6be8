/** The test sections of TOML and INI files (pyproject.toml, Cargo.toml, tox.ini, setup.cfg). */

import type { PythonLineState } from './python';

/** `[a]` → `a`, with quotes and the spaces around dots of TOML keys dropped. */
export const normalKey = (key: string): string =>
  key
    .replace(/["']/g, '')
    .replace(/\s*\.\s*/g, '.')
    .trim();

const tomlHeader = /^(\[\[?)([^[\]]*)\]\]?\s*(?:#.*)?$/;
export const tomlKey =
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
export function tomlProjection(
  text: string,
  relevant: (path: string) => boolean,
): Map<string, string[]> {
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
export function iniProjection(
  text: string,
  relevant: (name: string) => boolean,
): Map<string, string[]> {
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

export const pyprojectKeys = [
  /^tool\.(?:pytest|tox)(?:\.|$)/,
  /^tool\.(?:hatch\.envs\.[^.]+\.scripts|pdm\.scripts|poe\.tasks)\.test(?:$|[.:_-])/,
];
// `[[test]]` targets, a target's `test`/`harness`/`doctest`, `autotests`, the test profile (and the
// dev profile's assertion switches it inherits), and which crates a workspace holds.
export const cargoKeys = [
  /^test(?:\.|$)/,
  /^(?:lib|bin|bench|example)\.(?:test|harness|doctest)$/,
  /^package\.autotests$/,
  /^profile\.test(?:\.|$)/,
  /^profile\.dev\.(?:debug-assertions|overflow-checks)$/,
  /^workspace\.(?:members|exclude|default-members)$/,
];
export const anyOf =
  (patterns: readonly RegExp[]) =>
  (path: string): boolean =>
    patterns.some((re) => re.test(path));

export const toxSections = (name: string): boolean =>
  ['pytest', 'tool:pytest', 'tox'].includes(name) || name.startsWith('testenv');
export const setupCfgSections = (name: string): boolean =>
  ['tool:pytest', 'tox:tox'].includes(name) || name.startsWith('testenv');
