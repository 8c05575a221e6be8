// CSI (colours, cursor moves), OSC (hyperlinks, titles), charset selection (`ESC ( B`, which
// libtest emits after every coloured word) and the remaining two-byte escapes.
const ansiPattern =
  // eslint-disable-next-line no-control-regex -- ANSI escape sequences start with the ESC control character
  /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()*+][0-9A-Za-z]|[@-Z\\-_])/g;

export function stripAnsi(text: string): string {
  return text.replace(ansiPattern, '');
}

/**
 * The output as plain lines. A lone carriage return starts a new line: progress bars redraw with
 * `\r`, and a summary drawn over a spinner must still start its own line for the anchored patterns.
 */
export function toLines(output: string): string[] {
  return stripAnsi(output).split(/\r\n|\n|\r/);
}

/** A regex capture as a number; a missing group counts as 0 so optional parts can be read directly. */
export function num(value: string | undefined): number {
  return value === undefined ? 0 : Number.parseInt(value, 10);
}

/** Index of the last line matching `pattern`, or -1. */
export function lastIndexMatching(lines: readonly string[], pattern: RegExp): number {
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    if (pattern.test(lines[index] ?? '')) return index;
  }
  return -1;
}

/**
 * Reads `N word` parts such as `2 failed, 1 skipped, 3 passed` into a map from word to count.
 * Words the caller does not ask for are ignored, so new categories in a runner's summary do not break it.
 */
export function countParts(text: string, separator: RegExp): Map<string, number> {
  const result = new Map<string, number>();
  for (const part of text.split(separator)) {
    const match = /^\s*(\d+) ([a-zA-Z() ]+?)\s*$/.exec(part);
    if (match?.[2] !== undefined) {
      result.set(match[2], (result.get(match[2]) ?? 0) + num(match[1]));
    }
  }
  return result;
}

export function get(parts: ReadonlyMap<string, number>, ...words: string[]): number {
  return words.reduce((total, word) => total + (parts.get(word) ?? 0), 0);
}

/**
 * Whether `output` is a tail whose beginning was cut (the engine's output recorder starts such a
 * tail with `[… N bytes omitted …]`). Runners that print no run-wide summary (go, cargo's
 * per-binary ones) cannot prove such a list complete.
 */
export function isCutTail(output: string): boolean {
  return /^\[… \d+ bytes omitted/.test(output);
}
