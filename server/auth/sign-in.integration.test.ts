import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backends,
  openMigratedDatabase,
  type MigratedDatabase,
} from '../test-support/scratch-databases';
import { testPassword } from '../test-support/test-password';
import { createAccounts, type Accounts } from './accounts';
import { addPerson, disablePerson } from './people';

/**
 * Sign-in through better-auth's own handler on a real database: the cookie's flags, the origin
 * check (CSRF), the limits per person and per address, disabled people, sign-out. Each attack is
 * performed and the exact refusal asserted.
 */
const base = 'http://127.0.0.1:3999';
const origins = [base, 'http://localhost:3999'];

function signIn(
  accounts: Accounts,
  body: { username: string; password: string },
  headers: Record<string, string> = {},
): Promise<Response> {
  return accounts.auth.handler(
    new Request(`${base}/api/auth/sign-in/username`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base, ...headers },
      body: JSON.stringify(body),
    }),
  );
}

const cookieOf = (response: Response): string => response.headers.getSetCookie().join('\n');

describe.each(backends)('sign-in on $name', ({ create, skip }) => {
  let database: MigratedDatabase;
  let accounts: Accounts;
  let address = 0;
  // A fresh client address per test, so the per-address limit only bites where it is tested.
  const from = (): Record<string, string> => ({ 'x-forwarded-for': `198.51.100.${++address}` });

  beforeAll(async () => {
    if (skip) return;
    database = await openMigratedDatabase(create);
    accounts = createAccounts({
      db: database.db,
      provider: database.scratch.config.provider,
      secret: 'a'.repeat(32),
      baseUrl: base,
      trustedOrigins: origins,
    });
    for (const username of ['alice', 'bob', 'carol', 'dave']) {
      await addPerson(database.db, { username, password: testPassword, role: 'reviewer' });
    }
  }, 120_000);

  afterAll(async () => {
    // Unset when the suite is skipped (no PostgreSQL here).
    await (database as MigratedDatabase | undefined)?.close();
  });

  it.skipIf(skip)(
    'sets an httpOnly, SameSite=Lax session cookie (not Secure over http) and knows the person',
    async () => {
      const response = await signIn(
        accounts,
        { username: 'alice', password: testPassword },
        from(),
      );
      expect(response.status, await response.clone().text()).toBe(200);
      const cookie = cookieOf(response);
      expect(cookie).toMatch(/better-auth\.session_token=[^;]+;.*HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).not.toMatch(/Secure/i);
      const session = cookie
        .split('\n')
        .find((c) => c.includes('session_token'))
        ?.split(';')[0];
      const actor = await accounts.sessionActor(new Headers({ cookie: session ?? '' }));
      expect(actor).toMatchObject({
        kind: 'user',
        person: { username: 'alice', role: 'reviewer' },
      });
    },
  );

  it.skipIf(skip)('marks the cookie Secure (and __Secure-) when served over https', async () => {
    const secure = createAccounts({
      db: database.db,
      provider: database.scratch.config.provider,
      secret: 'b'.repeat(32),
      baseUrl: 'https://shadowbox.example.com',
      trustedOrigins: ['https://shadowbox.example.com'],
    });
    const response = await secure.auth.handler(
      new Request('https://shadowbox.example.com/api/auth/sign-in/username', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          origin: 'https://shadowbox.example.com',
          ...from(),
        },
        body: JSON.stringify({ username: 'bob', password: testPassword }),
      }),
    );
    expect(response.status).toBe(200);
    expect(cookieOf(response)).toMatch(/__Secure-better-auth\.session_token=[^;]+;.*Secure/i);
  });

  it.skipIf(skip)('refuses a cross-site sign-in (CSRF: a foreign Origin) with 403', async () => {
    const response = await signIn(
      accounts,
      { username: 'alice', password: testPassword },
      { ...from(), origin: 'http://evil.example' },
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      message: "cross-site request refused: Origin http://evil.example is not this server's",
    });
    expect(cookieOf(response)).not.toContain('session_token=');
  });

  it.skipIf(skip)('refuses a wrong password without a session', async () => {
    const response = await signIn(
      accounts,
      { username: 'carol', password: 'not the password' },
      from(),
    );
    expect(response.status).toBe(401);
    expect(cookieOf(response)).not.toContain('session_token=');
  });

  it.skipIf(skip)(
    'an attacker at one address cannot lock the real person out: 20 wrong tries from A, the right password from B gets in',
    async () => {
      const attacker = from();
      const responses: Response[] = [];
      for (let i = 0; i < 20; i++) {
        responses.push(
          await signIn(accounts, { username: 'dave', password: `guess-${i}xx` }, attacker),
        );
      }
      const statuses = responses.map((response) => response.status);
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(statuses.slice(5).every((status) => status === 429)).toBe(true);
      // The 6th is this limit (beyond the 10th, better-auth's per-address limit answers too).
      expect(await responses[5]?.json()).toMatchObject({
        message: expect.stringContaining(
          'too many sign-in attempts for this user from this address; try again in 60 s',
        ) as string,
      });
      // The attacker's own right guess waits too: the limit is on this name from that address.
      const late = await signIn(accounts, { username: 'dave', password: testPassword }, attacker);
      expect(late.status).toBe(429);
      const real = await signIn(accounts, { username: 'dave', password: testPassword }, from());
      expect(real.status, await real.clone().text()).toBe(200);
    },
  );

  it.skipIf(skip)('a sign-in that succeeds starts its name and address over', async () => {
    const one = from();
    for (let i = 0; i < 4; i++) {
      expect(
        (await signIn(accounts, { username: 'bob', password: `nope-${i}xxx` }, one)).status,
      ).toBe(401);
    }
    expect((await signIn(accounts, { username: 'bob', password: testPassword }, one)).status).toBe(
      200,
    );
    // Without the reset the 6th and 7th tries here would wait.
    for (let i = 0; i < 4; i++) {
      expect(
        (await signIn(accounts, { username: 'bob', password: `nope-${i}yyy` }, one)).status,
      ).toBe(401);
    }
  });

  it.skipIf(skip)(
    'limits one address guessing many people: the 11th try in a minute gets 429',
    async () => {
      const one = from();
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        statuses.push(
          (await signIn(accounts, { username: `nobody${i}`, password: 'whatever1' }, one)).status,
        );
      }
      expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
      expect(statuses[10]).toBe(429);
    },
  );

  it.skipIf(skip)('refuses a disabled person and ends their sessions', async () => {
    const first = await signIn(accounts, { username: 'carol', password: testPassword }, from());
    expect(first.status).toBe(200);
    const session =
      cookieOf(first)
        .split('\n')
        .find((c) => c.includes('session_token'))
        ?.split(';')[0] ?? '';
    await disablePerson(database.db, 'carol');
    expect(await accounts.sessionActor(new Headers({ cookie: session }))).toBeNull();
    const again = await signIn(accounts, { username: 'carol', password: testPassword }, from());
    expect(again.status).toBe(403);
    expect(cookieOf(again)).not.toContain('session_token=');
  });

  it.skipIf(skip)('signs out: the session no longer works', async () => {
    const response = await signIn(accounts, { username: 'bob', password: testPassword }, from());
    const session =
      cookieOf(response)
        .split('\n')
        .find((c) => c.includes('session_token'))
        ?.split(';')[0] ?? '';
    expect(await accounts.sessionActor(new Headers({ cookie: session }))).not.toBeNull();
    const out = await accounts.auth.handler(
      new Request(`${base}/api/auth/sign-out`, {
        method: 'POST',
        headers: { origin: base, cookie: session, 'content-type': 'application/json', ...from() },
        body: '{}',
      }),
    );
    expect(out.status).toBe(200);
    expect(await accounts.sessionActor(new Headers({ cookie: session }))).toBeNull();
  });
});
