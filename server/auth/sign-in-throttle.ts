import type { Db } from '../db/client';

/**
 * Sign-in attempts per person: better-auth limits each address, and this limits each username,
 * so guessing one person's password from many addresses is as slow as from one. Counts live in
 * the RateLimit table (shared by every web process), keyed `user:<username>`, in a window that
 * starts at the first attempt.
 */
export interface ThrottleRule {
  readonly windowMs: number;
  readonly max: number;
}

export const signInPerUser: ThrottleRule = { windowMs: 60_000, max: 5 };

export type ThrottleDecision =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSecs: number };

export async function consumeAttempt(
  db: Db,
  key: string,
  rule: ThrottleRule,
  now: number = Date.now(),
): Promise<ThrottleDecision> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await db.rateLimit.findUnique({ where: { key } });
    if (row === null || now - Number(row.lastRequest) >= rule.windowMs) {
      // A new window: whoever writes first wins, the others count in it on their next turn.
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
    if (row.count >= rule.max) {
      const left = Number(row.lastRequest) + rule.windowMs - now;
      return { allowed: false, retryAfterSecs: Math.max(1, Math.ceil(left / 1000)) };
    }
    const { count } = await db.rateLimit.updateMany({
      where: { key, count: row.count, lastRequest: row.lastRequest },
      data: { count: row.count + 1 },
    });
    if (count === 1) return { allowed: true };
  }
  // Lost every race: so many attempts at once are themselves a reason to refuse.
  return { allowed: false, retryAfterSecs: Math.ceil(rule.windowMs / 1000) };
}
