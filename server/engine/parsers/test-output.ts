import { stripAnsi } from './text';

// A failed test's own output, as a report gives it, kept small: the compare matrix shows it when
// a reviewer opens the test's cell, and every run keeps its tests (server/tasks/task-rows.ts caps
// the run's total). The first lines hold the assertion and the top of the stack.

export const maxOutputLines = 40;
export const maxOutputBytes = 4096;
/**
 * The most output one report keeps in all: the first failures keep theirs, later ones none. It
 * bounds every place a run's tests go (the run's row, `shadow-run --json`, MCP's shadow_run).
 */
export const maxReportOutputBytes = 128 * 1024;

/** Hands out a report's output budget, failure by failure. */
export class OutputBudget {
  #left = maxReportOutputBytes;

  /** `text` bounded, if the budget still holds it; undefined otherwise (or when empty). */
  take(text: string): string[] | undefined {
    if (this.#left <= 0) return undefined;
    const output = boundedOutput(text);
    if (output === undefined) return undefined;
    const size = output.reduce((n, line) => n + Buffer.byteLength(line) + 1, 0);
    if (size > this.#left) {
      this.#left = 0;
      return undefined;
    }
    this.#left -= size;
    return output;
  }
}

/**
 * `text` as at most `maxOutputLines` lines and `maxOutputBytes` bytes (then a line `…` says more
 * was cut); undefined when it is empty.
 */
export function boundedOutput(text: string): string[] | undefined {
  const lines: string[] = [];
  let bytes = 0;
  for (const line of stripAnsi(text).replace(/\r\n?/g, '\n').split('\n')) {
    const size = Buffer.byteLength(line) + 1;
    if (lines.length >= maxOutputLines || bytes + size > maxOutputBytes) {
      // One line longer than the budget (a minified stack) keeps its beginning.
      if (lines.length === 0) lines.push(Buffer.from(line).subarray(0, maxOutputBytes).toString());
      lines.push('…');
      break;
    }
    lines.push(line);
    bytes += size;
  }
  while (lines.length > 0 && lines.at(-1)?.trim() === '') lines.pop();
  return lines.length === 0 ? undefined : lines;
}
