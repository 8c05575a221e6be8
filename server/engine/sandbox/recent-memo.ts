/**
 * A value computed once and reused for `ttlMs` while its key stays the same: what a run reads of
 * the host (its toolchain directories, which host paths are files) is the same from one run to
 * the next, but not forever (a toolchain installed while the server runs is seen within `ttlMs`).
 * A different key (other inputs) is computed afresh at once.
 */
export class RecentMemo<V> {
  readonly #entries = new Map<string, { readonly value: V; readonly at: number }>();

  constructor(
    private readonly ttlMs: number,
    /** At most this many keys are kept; the oldest goes first. */
    private readonly maxKeys = 64,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(key: string, compute: () => V): V {
    const now = this.now();
    const entry = this.#entries.get(key);
    if (entry !== undefined && now - entry.at < this.ttlMs) return entry.value;
    const value = compute();
    this.#entries.delete(key);
    this.#entries.set(key, { value, at: now });
    if (this.#entries.size > this.maxKeys) {
      const [oldest] = this.#entries.keys();
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    return value;
  }
}
