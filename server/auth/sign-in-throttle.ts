import type { Db } from '../db/client';

/**
 * Sign-in attempts per username and address, with backoff: better-auth limits each address, and
 * this slows guessing one person's password from one place to a crawl. It is keyed by the address
 * too, so an attacker elsewhere cannot lock the real person out: their right password from their
 * own address is never refused because of someone else's tries. A sign-in that succeeds clears its
 * key. Counts live in the RateLimit table (shared by every web process), keyed
 * `signin:<username>|<address>`.
 */
export interface BackoffRule {
  /** Tries allowed with no wait between them. */
  readonly free: number;
  /** The wait before the first try beyond `free`; it doubles with every further try. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A key left alone this long starts over. */
  readonly forgetAfterMs: number;
}

export const signInBackoff: BackoffRule = {
  free: 5,
  baseDelayMs: 60_000,
  maxDelayMs: 3_600_000,
  forgetAfterMs: 24 * 3_600_000,
};

export type ThrottleDecision =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSecs: number };

export function signInKey(username: string, address: string): string {
  return `signin:${username}|${address}`;
}

/** How long after the last try the next one must wait, given how many tries came before it. */
export function backoffDelayMs(tries: number, rule: BackoffRule): number {
  if (tries < rule.free) return 0;
  return Math.min(rule.maxDelayMs, rule.baseDelayMs * 2 ** (tries - rule.free));
}

export async function consumeAttempt(
  db: Db,
  key: string,
  rule: BackoffRule,
  now: number = Date.now(),
): Promise<ThrottleDecision> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await db.rateLimit.findUnique({ where: { key } });
    if (row === null || now - Number(row.lastRequest) >= rule.forgetAfterMs) {
      // Starting over: whoever writes first wins, the others count on their next turn.
      const started =
        row === null
          ? await db.rateLimit
              .create({ data: { key, count: 1, lastRequest: BigInt(now) } })
              .then(() => 1)
              .catch(() => 0)
          : (
              await db.rateLimit.updateMany({
                where: { key, lastRequest: row.lastRequest },
                data: { count: 1, lastRequest: BigInt(now) },
              })
            ).count;
      if (started === 1) return { allowed: true };
      continue;
    }
    const wait = backoffDelayMs(row.count, rule);
    const left = Number(row.lastRequest) + wait - now;
    // A refused try does not count: waiting out the delay is always enough.
    if (left > 0) return { allowed: false, retryAfterSecs: Math.max(1, Math.ceil(left / 1000)) };
    const { count } = await db.rateLimit.updateMany({
      where: { key, count: row.count, lastRequest: row.lastRequest },
      data: { count: row.count + 1, lastRequest: BigInt(now) },
    });
    if (count === 1) return { allowed: true };
  }
  // Lost every race: so many attempts at once are themselves a reason to refuse.
  return { allowed: false, retryAfterSecs: Math.ceil(rule.baseDelayMs / 1000) };
}

/** After a sign-in that succeeded: the person starts over from that address. */
export async function clearAttempts(db: Db, key: string): Promise<void> {
  await db.rateLimit.deleteMany({ where: { key } });
}
