/**
 * The two pattern languages test runners name their files in, as regular expressions: Python's
 * `fnmatch` (pytest's `python_files`, unittest's `-p`) and the JS globs of jest, vitest, mocha
 * and `node --test` (picomatch's dialect: `**`, braces, extglobs).
 */

const escape = (c: string): string => c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** A `[…]` class at `at` ('!' or '^' negates), or null where the bracket does not close. */
function bracket(pattern: string, at: number, slash: boolean): { re: string; end: number } | null {
  let j = at + 1;
  if (pattern.charAt(j) === '!' || pattern.charAt(j) === '^') j += 1;
  if (pattern.charAt(j) === ']') j += 1;
  const close = pattern.indexOf(']', j);
  if (close < 0) return null;
  const body = pattern.slice(at + 1, close);
  const negated = body.startsWith('!') || body.startsWith('^');
  const items = (negated ? body.slice(1) : body).replace(/\\/g, '\\\\').replace(/\]/g, '\\]');
  const re = negated ? `[^${items}${slash ? '/' : ''}]` : `[${items}]`;
  return { re, end: close + 1 };
}

/** Python's `fnmatch.translate`: `*` crosses `/` there, and the match is whole. */
export function fnmatchRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length;) {
    const c = pattern.charAt(i);
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const cls = bracket(pattern, i, false);
      if (cls !== null) {
        re += cls.re;
        i = cls.end;
        continue;
      }
      re += '\\[';
    } else re += escape(c);
    i += 1;
  }
  return new RegExp(`^(?:${re})$`, 's');
}

/** The alternatives of a `{a,b}` or `@(a|b)` group that starts at `open`, and where it ends. */
function group(
  pattern: string,
  open: number,
  separator: string,
  closer: string,
): { parts: string[]; end: number } | null {
  const parts: string[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < pattern.length; i += 1) {
    const c = pattern.charAt(i);
    if (c === '\\') i += 1;
    else if (c === '{' || c === '(') depth += 1;
    else if ((c === '}' || c === ')') && depth > 0) depth -= 1;
    else if (depth === 0 && c === separator) {
      parts.push(pattern.slice(start, i));
      start = i + 1;
    } else if (depth === 0 && c === closer) {
      parts.push(pattern.slice(start, i));
      return { parts, end: i + 1 };
    }
  }
  return null;
}

const extglobs: Readonly<Record<string, (alternatives: string) => string>> = {
  '?': (a) => `(?:${a})?`,
  '*': (a) => `(?:${a})*`,
  '+': (a) => `(?:${a})+`,
  '@': (a) => `(?:${a})`,
  // "Anything but": read as any name, which collects more rather than less.
  '!': () => '[^/]*',
};

function globBody(pattern: string, depth: number): string {
  if (depth > 8) return '.*';
  let re = '';
  for (let i = 0; i < pattern.length;) {
    const c = pattern.charAt(i);
    const next = pattern.charAt(i + 1);
    if (c === '\\' && i + 1 < pattern.length) {
      re += escape(next);
      i += 2;
      continue;
    }
    const ext = extglobs[c];
    if (ext !== undefined && next === '(') {
      const alternatives = group(pattern, i + 1, '|', ')');
      if (alternatives !== null) {
        re += ext(alternatives.parts.map((p) => globBody(p, depth + 1)).join('|'));
        i = alternatives.end;
        continue;
      }
    }
    if (c === '*' && next === '*') {
      const segmentStart = i === 0 || pattern.charAt(i - 1) === '/';
      const after = pattern.charAt(i + 2);
      if (segmentStart && after === '/') {
        re += '(?:[^/]*/)*';
        i += 3;
        continue;
      }
      if (segmentStart && after === '') {
        re += '.*';
        i += 2;
        continue;
      }
    }
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const cls = bracket(pattern, i, true);
      if (cls !== null) {
        re += cls.re;
        i = cls.end;
        continue;
      }
      re += '\\[';
    } else if (c === '{') {
      const alternatives = group(pattern, i, ',', '}');
      if (alternatives !== null && alternatives.parts.length > 1) {
        re += `(?:${alternatives.parts.map((p) => globBody(p, depth + 1)).join('|')})`;
        i = alternatives.end;
        continue;
      }
      re += '\\{';
    } else re += escape(c);
    i += 1;
  }
  return re;
}

/**
 * A JS runner's glob against a path relative to the project root. A leading `./`, `/` or jest's
 * `<rootDir>/` is dropped: patterns are read as relative to the root, where these runners start.
 */
export function globRegExp(pattern: string): RegExp {
  const relative = pattern.replace(/^<rootDir>\/?/, '').replace(/^(?:\.\/|\/)+/, '');
  return new RegExp(`^(?:${globBody(relative, 0)})$`, 's');
}

export const hasGlob = (pattern: string): boolean => /[*?[{]/.test(pattern);
