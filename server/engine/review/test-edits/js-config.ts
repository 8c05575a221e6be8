/**
 * Literal settings read out of JS runners' configuration files without running them: the
 * strings (or regular expressions) of a key such as jest's `testMatch`, in a `jest.config.js`,
 * a `package.json`, a `.mocharc.yml`. A value that is not literal (a variable, a spread, a call)
 * is `unreadable`: the caller cannot know what the runner collects.
 */

import { CODE, COMMENT, lex, skipSpace, STRING, type Lexed } from './lexer';

/** null: the key is not set (the runner's default applies). */
export type Setting = readonly string[] | 'unreadable' | null;

/** The literal at `at` (a string, a template without `${`, a regex's source), and its end. */
function literalAt(text: string, lexed: Lexed, at: number): { value: string; end: number } | null {
  const c = text.charAt(at);
  if (c === '`') {
    const close = lexed.close.get(at);
    if (close === undefined || text.slice(at, close).includes('${')) return null;
    return { value: text.slice(at + 1, close), end: close + 1 };
  }
  if ((c !== '"' && c !== "'" && c !== '/') || lexed.code[at] !== STRING) return null;
  let end = at + 1;
  while (end < text.length && lexed.code[end] === STRING) end += 1;
  const body = text.slice(at + 1, end - 1);
  if (c === '/') {
    while (/[a-z]/.test(text.charAt(end))) end += 1;
    return { value: body, end };
  }
  return { value: body.replace(/\\(.)/g, '$1'), end };
}

/** A value at `at`: one literal, or an array of literals (comments between are skipped). */
function valueAt(text: string, lexed: Lexed, at: number): readonly string[] | null {
  if (text.charAt(at) !== '[') {
    const one = literalAt(text, lexed, at);
    return one === null ? null : [one.value];
  }
  const close = lexed.close.get(at);
  if (close === undefined) return null;
  const values: string[] = [];
  for (let j = at + 1; j < close;) {
    if (lexed.code[j] === COMMENT || /[\s,]/.test(text.charAt(j))) {
      j += 1;
      continue;
    }
    const item = literalAt(text, lexed, j);
    if (item === null) return null;
    values.push(item.value);
    j = item.end;
  }
  return values;
}

const keyPattern = (name: string): RegExp =>
  new RegExp(`(?<![\\w$.])(?:${name}|"${name}"|'${name}')\\s*:`, 'g');

/** Where the object values of a key lie in the text: [open brace, close brace] each. */
function objectRanges(text: string, lexed: Lexed, key: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const match of text.matchAll(keyPattern(key))) {
    const colon = match.index + match[0].length - 1;
    const open = skipSpace(text, colon + 1);
    const close = text.charAt(open) === '{' ? lexed.close.get(open) : undefined;
    if (lexed.code[colon] === CODE && close !== undefined) ranges.push([open, close]);
  }
  return ranges;
}

/**
 * A key's literal values in a JS (or JSON) configuration: every occurrence, so a multi-project
 * configuration gives the union. `inside` limits the search to the objects of a key (vitest's
 * settings live in `test: { … }`), `outside` leaves out others' (`coverage: { include }` names
 * the files coverage measures, not tests).
 */
export function jsSetting(
  text: string,
  key: string,
  inside?: string,
  outside: readonly string[] = [],
): Setting {
  const lexed = lex(text, 'js');
  const within = inside === undefined ? null : objectRanges(text, lexed, inside);
  const without = outside.flatMap((name) => objectRanges(text, lexed, name));
  const inRange = (at: number) => (range: [number, number]) => at > range[0] && at < range[1];
  let values: string[] | null = null;
  for (const match of text.matchAll(keyPattern(key))) {
    const colon = match.index + match[0].length - 1;
    if (lexed.code[colon] !== CODE) continue;
    if (within !== null && !within.some(inRange(match.index))) continue;
    if (without.some(inRange(match.index))) continue;
    const found = valueAt(text, lexed, skipSpace(text, colon + 1));
    if (found === null) return 'unreadable';
    values = [...(values ?? []), ...found];
  }
  return values;
}

/** A key of a parsed JSON object (package.json's `jest`, `mocha`). */
export function jsonSetting(object: unknown, key: string): Setting {
  if (object === null || typeof object !== 'object' || !(key in object)) return null;
  const value = (object as Record<string, unknown>)[key];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v): v is string => typeof v === 'string')) return value;
  return 'unreadable';
}

/** A top-level key of a simple YAML file (`.mocharc.yml`): a scalar, a flow list or a block list. */
export function yamlSetting(text: string, key: string): Setting {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((line) => new RegExp(`^${key}\\s*:`).test(line));
  if (at < 0) return null;
  const unquote = (s: string): string => s.trim().replace(/^(["'])(.*)\1$/, '$2');
  const inline = (lines[at] ?? '')
    .replace(/^[^:]*:/, '')
    .replace(/\s+#.*$/, '')
    .trim();
  if (inline.startsWith('[')) {
    if (!inline.endsWith(']')) return 'unreadable';
    return inline
      .slice(1, -1)
      .split(',')
      .map(unquote)
      .filter((s) => s !== '');
  }
  if (inline !== '') return /^[&*!|>]/.test(inline) ? 'unreadable' : [unquote(inline)];
  const values: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const item = /^\s+-\s+(.*)$/.exec(line);
    if (item === null) break;
    values.push(unquote(item[1] ?? ''));
  }
  return values.length > 0 ? values : 'unreadable';
}
