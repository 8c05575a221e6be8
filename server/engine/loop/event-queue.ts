/**
 * Turns synchronous event callbacks (the engine's EventSinks) into ordered asynchronous writes:
 * each write starts after the previous one finished, and the first failure is kept for `drain()`
 * to rethrow, so a lost event is never silent.
 */
export class SerialWriter {
  private tail: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | null = null;

  push(write: () => Promise<void>): void {
    this.tail = this.tail.then(async () => {
      if (this.failure !== null) return;
      try {
        await write();
      } catch (error) {
        this.failure = { error };
      }
    });
  }

  async drain(): Promise<void> {
    await this.tail;
    if (this.failure !== null) throw this.failure.error;
  }
}

/**
 * Collects output lines per subject and hands them over in batches: one persisted event per
 * flush instead of one per line (a noisy build prints thousands), at most `intervalMs` late.
 */
export class LineBatcher {
  private readonly pending = new Map<string, string[]>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly flushLines: (subject: string, lines: readonly string[]) => void,
    private readonly intervalMs = 200,
    private readonly maxLines = 500,
  ) {}

  add(subject: string, line: string): void {
    const lines = this.pending.get(subject) ?? [];
    lines.push(line);
    this.pending.set(subject, lines);
    if (lines.length >= this.maxLines) this.flush(subject);
    else this.timer ??= setTimeout(() => this.flushAll(), this.intervalMs);
  }

  flush(subject: string): void {
    const lines = this.pending.get(subject);
    if (lines === undefined || lines.length === 0) return;
    this.pending.delete(subject);
    this.flushLines(subject, lines);
  }

  flushAll(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    for (const subject of [...this.pending.keys()]) this.flush(subject);
  }
}
