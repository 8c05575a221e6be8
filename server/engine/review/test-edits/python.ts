/** Python tests in source files, found by indentation rather than brackets. */

import type { Block, BlockSet } from './blocks';
import { matchesNameOption, type PythonNames } from './collection';
import { fnmatchRegExp } from './globs';
import { indentOf } from './text';

// Python: test functions and classes at any depth, by indentation, named as the runner takes
// them (pytest's `python_functions` / `python_classes`), and `unittest.TestCase` subclasses.
export interface PythonLineState {
  triple: '"""' | "'''" | null;
  depth: number;
}

/** Advances the string/bracket state over one line; whether the line started inside either. */
function scanPythonLine(line: string, state: PythonLineState): boolean {
  const continued = state.triple !== null || state.depth > 0;
  let i = 0;
  while (i < line.length) {
    if (state.triple !== null) {
      const end = line.indexOf(state.triple, i);
      if (end < 0) return continued;
      state.triple = null;
      i = end + 3;
      continue;
    }
    const c = line.charAt(i);
    if (c === '#') break;
    if (c === '"' || c === "'") {
      const triple = c.repeat(3);
      if (line.startsWith(triple, i)) {
        state.triple = triple === '"""' ? '"""' : "'''";
        i += 3;
        continue;
      }
      let j = i + 1;
      while (j < line.length && line.charAt(j) !== c) j += line.charAt(j) === '\\' ? 2 : 1;
      i = j + 1;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') state.depth += 1;
    else if ((c === ')' || c === ']' || c === '}') && state.depth > 0) state.depth -= 1;
    i += 1;
  }
  return continued;
}

const defaultNames: PythonNames = { classes: ['Test'], functions: ['test'] };

export function pythonBlocks(text: string, names: PythonNames = defaultNames): BlockSet {
  const patterns = new Map<string, RegExp>();
  const glob = (pattern: string): RegExp => {
    const known = patterns.get(pattern) ?? fnmatchRegExp(pattern);
    patterns.set(pattern, known);
    return known;
  };
  const blocks: Block[] = [];
  const scopes: {
    indent: number;
    name: string;
    qualified: string;
    start: number;
    label: string | null;
  }[] = [];
  const state: PythonLineState = { triple: null, depth: 0 };
  let lastEnd = 0;
  let decorators = -1;
  const closeScopes = (indent: number): void => {
    for (let top = scopes.at(-1); top !== undefined && top.indent >= indent; top = scopes.at(-1)) {
      scopes.pop();
      if (top.label !== null) {
        blocks.push({ start: top.start, end: lastEnd, name: top.qualified, label: top.label });
      }
    }
  };
  for (let start = 0; start <= text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    const trimmed = line.trim();
    const continued = scanPythonLine(line, state);
    if (continued) {
      if (trimmed !== '') lastEnd = end;
    } else if (trimmed !== '' && !trimmed.startsWith('#')) {
      const indent = indentOf(line);
      closeScopes(indent);
      if (trimmed.startsWith('@')) {
        if (decorators < 0) decorators = start;
      } else {
        const def = /^(?:async\s+)?(def|class)\s+([A-Za-z_]\w*)\s*(?:\(([^)]*))?/.exec(trimmed);
        if (def !== null) {
          const name = def[2] ?? '';
          const test =
            def[1] === 'def'
              ? matchesNameOption(name, names.functions, glob)
              : matchesNameOption(name, names.classes, glob) || /TestCase\b/.test(def[3] ?? '');
          const qualified = [...scopes.map((s) => s.name), name].join('.');
          const label = !test ? null : def[1] === 'def' ? 'test' : 'test class';
          scopes.push({
            indent,
            name,
            qualified,
            start: decorators < 0 ? start : decorators,
            label,
          });
        }
        decorators = -1;
      }
      lastEnd = end;
    }
    if (newline < 0) break;
    start = newline + 1;
  }
  closeScopes(-1);
  // Names come qualified by every enclosing class and function: `TestA.test_x`, `Calc.test_adds`.
  return { blocks, separator: '.', qualified: true };
}
