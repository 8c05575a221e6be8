/** One destination a setup asked the egress proxy for, and what became of it. */
export interface EgressRecord {
  /** As asked for: a lower-case host name or an IP address. */
  readonly host: string;
  readonly port: number;
  /** Whether a connection to it was made (a tunnel opened, or a request forwarded). */
  readonly allowed: boolean;
  /** Why it was refused or failed; absent for allowed ones. */
  readonly reason?: string;
  /** How many times, with this outcome. */
  readonly count: number;
}

/** Refused destinations kept apart; beyond them, the rest are counted in one record. */
const maxRefused = 256;
const overflowReason = 'more refused destinations than the log keeps';

/**
 * The proxy's record of every destination, deduplicated by host, port and outcome. A hostile
 * setup can ask for any number of names; the log stays bounded.
 */
export class EgressLog {
  readonly #records = new Map<string, { -readonly [K in keyof EgressRecord]: EgressRecord[K] }>();
  #refused = 0;

  /** Adds one outcome; returns whether it was new (its first occurrence). */
  add(
    host: string,
    port: number,
    outcome: { allowed: true } | { allowed: false; reason: string },
  ): boolean {
    const reason = outcome.allowed ? undefined : outcome.reason;
    let key = `${host}\0${port}\0${reason ?? ''}`;
    let record = this.#records.get(key);
    if (record === undefined && !outcome.allowed && this.#refused >= maxRefused) {
      key = '\0overflow';
      record = this.#records.get(key);
      if (record === undefined) {
        record = { host: '*', port: 0, allowed: false, reason: overflowReason, count: 0 };
        this.#records.set(key, record);
      }
    }
    if (record !== undefined) {
      record.count += 1;
      return false;
    }
    if (!outcome.allowed) this.#refused += 1;
    this.#records.set(
      key,
      reason === undefined
        ? { host, port, allowed: true, count: 1 }
        : { host, port, allowed: false, reason, count: 1 },
    );
    return true;
  }

  records(): EgressRecord[] {
    return [...this.#records.values()].map((r) => ({ ...r }));
  }
}

/** `allowed: registry.npmjs.org:443 (×12)` / `refused: downloads.example.com:443 (not on …)`. */
export function describeEgressRecord(record: EgressRecord): string {
  const host = record.host.includes(':') ? `[${record.host}]` : record.host;
  const times = record.count > 1 ? ` ×${record.count}` : '';
  return record.allowed
    ? `allowed: ${host}:${record.port}${times}`
    : `refused: ${host}:${record.port}${times} (${record.reason ?? 'refused'})`;
}
