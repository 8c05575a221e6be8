import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  backends,
  openMigratedDatabase,
  type MigratedDatabase,
} from '../test-support/scratch-databases';
import { testPassword } from '../test-support/test-password';
import { createAccounts, type Accounts } from './accounts';
import { installForwardedForGuard, parseTrustedProxies } from './client-address';
import { addPerson, disablePerson, renamePerson } from './people';

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

const sessionOf = (response: Response): string =>
  cookieOf(response)
    .split('\n')
    .find((c) => c.includes('session_token'))
    ?.split(';')[0] ?? '';

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
    for (const username of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank']) {
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

  it.skipIf(skip)(
    'refuses sign-in by the placeholder email (404 SIGN_IN_BY_USERNAME), right password or not',
    async () => {
      const response = await accounts.auth.handler(
        new Request(`${base}/api/auth/sign-in/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: base, ...from() },
          body: JSON.stringify({
            email: 'alice@users.shadowbox.invalid',
            password: testPassword,
          }),
        }),
      );
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ code: 'SIGN_IN_BY_USERNAME' });
      expect(cookieOf(response)).not.toContain('session_token=');
    },
  );

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

  it.skipIf(skip)(
    'refuses a person renaming themselves through update-user (403 USERNAME_CHANGE_REFUSED): the name stays and `user disable` still finds them',
    async () => {
      const signedIn = await signIn(accounts, { username: 'erin', password: testPassword }, from());
      expect(signedIn.status).toBe(200);
      const session = sessionOf(signedIn);
      for (const change of [
        { username: 'mallory' },
        { displayUsername: 'Mallory' },
        { name: 'mallory' },
        { username: 'erin', displayUsername: 'admin' },
      ]) {
        const response = await accounts.auth.handler(
          new Request(`${base}/api/auth/update-user`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              origin: base,
              cookie: session,
              ...from(),
            },
            body: JSON.stringify(change),
          }),
        );
        expect(response.status, JSON.stringify(change)).toBe(403);
        expect(await response.json()).toMatchObject({
          code: 'USERNAME_CHANGE_REFUSED',
          message: expect.stringContaining('only an admin changes a username') as string,
        });
      }
      const row = await database.db.user.findUniqueOrThrow({
        where: { username: 'erin' },
        select: { username: true, displayUsername: true, name: true },
      });
      expect(row).toEqual({ username: 'erin', displayUsername: 'erin', name: 'erin' });
      expect(await database.db.user.count({ where: { username: 'mallory' } })).toBe(0);
      expect((await disablePerson(database.db, 'erin')).alreadyDisabled).toBe(false);
    },
  );

  it.skipIf(skip)(
    'only an admin renames: a reviewer is refused; an admin renames, audited by id, and the person signs in by the new name',
    async () => {
      const frank = await database.db.user.findUniqueOrThrow({
        where: { username: 'frank' },
        select: { id: true },
      });
      const reviewer = {
        kind: 'user',
        person: { id: frank.id, username: 'frank', role: 'reviewer', teams: [] },
      } as const;
      await expect(
        accounts.renamePerson(reviewer, { from: 'frank', to: 'francis' }),
      ).rejects.toMatchObject({ code: 'FORBIDDEN' });
      const admin = {
        kind: 'user',
        person: { id: 'admin-id', username: 'root', role: 'admin', teams: [] },
      } as const;
      await renamePerson(database.db, { from: 'frank', to: 'francis', actor: admin });
      const audit = await accounts.listAudit(admin, { username: 'francis' });
      expect(audit[0]).toMatchObject({
        actor: 'root',
        actorUserId: 'admin-id',
        action: 'user.rename',
        subjectUserId: frank.id,
        details: { from: 'frank', to: 'francis' },
      });
      expect(
        (await signIn(accounts, { username: 'francis', password: testPassword }, from())).status,
      ).toBe(200);
      expect(
        (await signIn(accounts, { username: 'frank', password: testPassword }, from())).status,
      ).toBe(401);
    },
  );

  it.skipIf(skip)(
    'a forged X-Forwarded-For per request from an untrusted peer does not escape the limit; a trusted proxy’s is believed',
    async () => {
      // Real HTTP servers, as Next.js's would be with the guard the instrumentation installs.
      class Untrusting extends http.Server {}
      class Trusting extends http.Server {}
      installForwardedForGuard(Untrusting, []);
      installForwardedForGuard(Trusting, parseTrustedProxies('127.0.0.1, 10.0.0.0/8'));
      const serve = async (server: http.Server): Promise<string> => {
        server.on('request', (request, response) => {
          void (async () => {
            const chunks: Buffer[] = [];
            for await (const chunk of request) chunks.push(chunk as Buffer);
            const headers = new Headers();
            for (const [name, value] of Object.entries(request.headers)) {
              if (typeof value === 'string') headers.set(name, value);
            }
            const answer = await accounts.auth.handler(
              new Request(`${base}${request.url ?? '/'}`, {
                method: request.method ?? 'GET',
                headers,
                body: Buffer.concat(chunks),
              }),
            );
            response.writeHead(answer.status, { 'content-type': 'application/json' });
            response.end(await answer.text());
          })();
        });
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      };
      const untrusting = new Untrusting();
      const trusting = new Trusting();
      try {
        const tries = async (url: string, username: string, forged: (i: number) => string) => {
          const answers: { status: number; message: string }[] = [];
          for (let i = 0; i < 6; i++) {
            const response = await fetch(`${url}/api/auth/sign-in/username`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                origin: base,
                'x-forwarded-for': forged(i),
                'x-real-ip': forged(i),
              },
              body: JSON.stringify({ username, password: `wrong-${i}-xx` }),
            });
            const body = (await response.json()) as { message?: string };
            answers.push({ status: response.status, message: body.message ?? '' });
          }
          return answers;
        };
        const refused = await tries(await serve(untrusting), 'alice', (i) => `203.0.113.${i + 1}`);
        expect(refused.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 429]);
        expect(refused[5]?.message).toContain(
          'too many sign-in attempts for this user from this address',
        );
        // Behind a trusted proxy each hop it names is a different client: none is refused.
        const believed = await tries(
          await serve(trusting),
          'dave',
          (i) => `192.0.2.${i + 1}, 10.1.2.3`,
        );
        expect(believed.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 401]);
      } finally {
        untrusting.close();
        trusting.close();
      }
    },
  );

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
