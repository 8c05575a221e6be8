/**
 * A bounded record of a process's output. Test runs can print megabytes of warnings before the one
 * error that matters, so a plain "last N bytes" tail loses exactly what a fixer needs. This keeps the
 * last bytes of output *and*, within a quarter of the budget, the error blocks (an error line and
 * the lines after it) that scrolled out of the tail.
 */

// Lines that open a block worth keeping: compiler errors, panics, failed assertions, tracebacks.
const errorBlockStart =
  /^(?:error(?:\[E\d+\])?:|\s*(?:FAIL|FAILED|ERROR)\b|--- FAIL|thread '.*' panicked|Traceback \(most recent call last\)|E {3}|\s*●|\S+:\d+(?::\d+)?: (?:fatal )?error:|.*\bAssertionError\b|not ok \d)/;
const linesPerBlock = 12;

export interface TailSnapshot {
  /** Kept error blocks from the omitted part, then the tail; the exact output when nothing was cut. */
  readonly text: string;
  readonly totalBytes: number;
  readonly truncated: boolean;
}

const byteLength = (line: string): number => Buffer.byteLength(line) + 1;

export class OutputTail {
  readonly #maxLineBytes: number;
  readonly #blockBudget: number;
  readonly #tailBudget: number;
  readonly #tail: { line: string; opensBlock: boolean }[] = [];
  #tailBytes = 0;
  #totalBytes = 0;
  #omittedBytes = 0;
  readonly #kept: string[] = [];
  #keptBytes = 0;
  #blockLinesLeft = 0;

  constructor(maxBytes = 64 * 1024) {
    if (!Number.isInteger(maxBytes) || maxBytes < 1024) {
      throw new RangeError(
        `OutputTail maxBytes must be an integer >= 1024, got ${String(maxBytes)}`,
      );
    }
    this.#blockBudget = Math.floor(maxBytes / 4);
    this.#tailBudget = maxBytes - this.#blockBudget;
    this.#maxLineBytes = Math.floor(maxBytes / 8);
  }

  /** Adds one line of output, without its newline. */
  push(rawLine: string): void {
    this.#totalBytes += byteLength(rawLine);
    const line =
      rawLine.length > this.#maxLineBytes
        ? `${rawLine.slice(0, this.#maxLineBytes)} […line cut]`
        : rawLine;
    this.#tail.push({ line, opensBlock: errorBlockStart.test(line) });
    this.#tailBytes += byteLength(line);
    while (this.#tailBytes > this.#tailBudget && this.#tail.length > 1) this.#evictOldest();
  }

  snapshot(): TailSnapshot {
    const tail = this.#tail.map((entry) => entry.line).join('\n');
    if (this.#omittedBytes === 0)
      return { text: tail, totalBytes: this.#totalBytes, truncated: false };
    const head =
      this.#kept.length > 0
        ? `[… ${this.#omittedBytes} bytes omitted; error blocks from them follow …]\n${this.#kept.join('\n')}\n[… end of kept error blocks …]\n`
        : `[… ${this.#omittedBytes} bytes omitted …]\n`;
    return { text: head + tail, totalBytes: this.#totalBytes, truncated: true };
  }

  #evictOldest(): void {
    const entry = this.#tail.shift();
    if (entry === undefined) return;
    this.#tailBytes -= byteLength(entry.line);
    this.#omittedBytes += byteLength(entry.line);
    if (entry.opensBlock) {
      if (this.#kept.length > 0 && this.#blockLinesLeft === 0) this.#keep('…');
      this.#blockLinesLeft = linesPerBlock;
    }
    if (this.#blockLinesLeft > 0) {
      this.#blockLinesLeft -= 1;
      this.#keep(entry.line);
    }
  }

  #keep(line: string): void {
    if (this.#keptBytes + byteLength(line) > this.#blockBudget) {
      this.#blockLinesLeft = 0;
      return;
    }
    this.#kept.push(line);
    this.#keptBytes += byteLength(line);
  }
}
