import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backends,
  openMigratedDatabase,
  type MigratedDatabase,
} from '../test-support/scratch-databases';
import { clearAttempts, consumeAttempt, signInBackoff, signInKey } from './sign-in-throttle';

/** The per-username-and-address backoff on a real database, with the clock given. */
describe.each(backends)('sign-in backoff on $name', ({ create, skip }) => {
  let database: MigratedDatabase;
  beforeAll(async () => {
    if (!skip) database = await openMigratedDatabase(create);
  }, 120_000);
  afterAll(async () => {
    await (database as MigratedDatabase | undefined)?.close();
  });

  it.skipIf(skip)('waits a minute after five tries, then twice as long after each', async () => {
    const key = signInKey('alice', '198.51.100.1');
    const at = (ms: number) => consumeAttempt(database.db, key, signInBackoff, ms);
    for (let i = 0; i < 5; i++) expect(await at(i * 1000)).toEqual({ allowed: true });
    // The 5th try was at 4 s: the 6th waits until 64 s; being refused does not extend it.
    expect(await at(5000)).toEqual({ allowed: false, retryAfterSecs: 59 });
    expect(await at(63_000)).toEqual({ allowed: false, retryAfterSecs: 1 });
    expect(await at(64_000)).toEqual({ allowed: true });
    expect(await at(64_000 + 119_000)).toEqual({ allowed: false, retryAfterSecs: 1 });
    expect(await at(64_000 + 120_000)).toEqual({ allowed: true });
    // Another address for the same person is not slowed by any of it.
    expect(
      await consumeAttempt(database.db, signInKey('alice', '198.51.100.2'), signInBackoff, 5000),
    ).toEqual({ allowed: true });
    // A day later, or after a sign-in that succeeded, the key starts over.
    expect(await at(64_000 + 120_000 + signInBackoff.forgetAfterMs)).toEqual({ allowed: true });
    await clearAttempts(database.db, key);
    expect(await database.db.rateLimit.count({ where: { key } })).toBe(0);
  });
});
