/** Go: build constraints that keep files out of `go test`. */

import { multisetDiff } from './text';

export const goConstraint = /^\s*\/\/(?:go:build\b| \+build\b)/;

/** Build constraints added or removed in a Go file that exists on both sides. */
export function goConstraintWhats(path: string, before: string, after: string): string[] {
  const constraints = (text: string): string[] =>
    text
      .split('\n')
      .filter((line) => goConstraint.test(line))
      .map((line) => line.trim().replace(/\s+/g, ' '));
  const { removed, added } = multisetDiff(constraints(before), constraints(after));
  return [
    ...added.map((line) => `build constraint '${line}' added in ${path}`),
    ...removed.map((line) => `build constraint '${line}' removed in ${path}`),
  ];
}
