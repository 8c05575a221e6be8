import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUser,
  ensureBuilt,
  startServer,
  testPassword,
  type ServerHandle,
} from '../test-support/app-server';

/**
 * Against the built app under `next start`: Next.js passes a client's own X-Forwarded-For on to
 * route handlers, so the guard the instrumentation installs must have replaced it before better-auth
 * and the sign-in limit read it. A forged header per request must not make each try a new address.
 */
const minutes = (n: number): number => n * 60_000;

async function tries(
  server: ServerHandle,
  username: string,
  forged: (i: number) => string,
): Promise<{ status: number; message: string }[]> {
  const answers: { status: number; message: string }[] = [];
  for (let i = 0; i < 6; i++) {
    const response = await fetch(`${server.url}/api/auth/sign-in/username`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: server.url,
        'x-forwarded-for': forged(i),
      },
      body: JSON.stringify({ username, password: `wrong-${i}-guess` }),
    });
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    answers.push({ status: response.status, message: body.message ?? '' });
  }
  return answers;
}

describe('X-Forwarded-For under next start', () => {
  let dataDir: string;
  let server: ServerHandle | undefined;

  beforeAll(async () => {
    await ensureBuilt();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-xff-'));
    await createUser(dataDir, { username: 'alice', role: 'author' });
    await createUser(dataDir, { username: 'bob', role: 'author' });
  }, minutes(25));

  afterAll(async () => {
    await server?.kill().catch(() => server?.kill9());
    await rm(dataDir, { recursive: true, force: true });
  }, minutes(2));

  it(
    'a forged header per request from an untrusted peer does not escape the sign-in limit',
    async () => {
      server = await startServer({ dataDir, env: { SHADOWBOX_TRUSTED_PROXIES: undefined } });
      const answers = await tries(server, 'alice', (i) => `203.0.113.${i + 1}`);
      expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 429]);
      expect(answers[5]?.message).toContain(
        'too many sign-in attempts for this user from this address',
      );
      await server.kill();
      server = undefined;
    },
    minutes(3),
  );

  it(
    'behind a trusted proxy, the hop it names is the client',
    async () => {
      server = await startServer({ dataDir, env: { SHADOWBOX_TRUSTED_PROXIES: '127.0.0.1,::1' } });
      const answers = await tries(server, 'bob', (i) => `192.0.2.${i + 1}`);
      expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 401]);
      const right = await fetch(`${server.url}/api/auth/sign-in/username`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ username: 'bob', password: testPassword }),
      });
      expect(right.status).toBe(200);
    },
    minutes(3),
  );
});
