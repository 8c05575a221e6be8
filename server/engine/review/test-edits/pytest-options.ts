/** pytest's narrowing options, and which file names and section names are pytest's or tox's. */

// Options that narrow what pytest collects or runs; named in `what` when a change adds them.
const pytestNarrowing =
  /(?<![\w-])(--deselect|--ignore-glob|--ignore|--collect-only|--co|--last-failed|--lf|--exitfirst|--maxfail|--continue-on-collection-errors|-p\s*no:[\w.-]+|-k|-m|-x)(?![\w-])/g;

export function narrowingOptions(lines: readonly string[]): string[] {
  const found = new Set<string>();
  for (const line of lines) {
    for (const match of line.matchAll(pytestNarrowing)) {
      found.add((match[1] ?? '').replace(/\s+/g, ' '));
    }
  }
  return [...found];
}

export const pytestish = /pytest|tox|testenv/;
