import { betterAuth } from 'better-auth';
import { prismaAdapter } from 'better-auth/adapters/prisma';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { username } from 'better-auth/plugins';
import type { Db } from '../db/client';
import { normaliseUsername, usernamePattern } from './usernames';
import { addressKey, canonicalAddress } from './client-address';
import { clearAttempts, consumeAttempt, signInBackoff, signInKey } from './sign-in-throttle';

/**
 * Sign-in, through better-auth: username and password (scrypt, better-auth's memory-hard default),
 * sessions in httpOnly SameSite=Lax cookies (Secure, and `__Secure-` named, when the server is
 * served over https), better-auth's origin check on every state change (on top of the browser
 * guard in server/api/browser-origin.ts), sign-in limited per address (better-auth) and per
 * username and address with backoff (sign-in-throttle.ts); the address is X-Forwarded-For as
 * client-address.ts settled it. Nobody signs up: people are made by an admin or the CLI
 * (server/auth/people.ts), the first one through the one-time set-up link, and nobody renames
 * themselves: only an admin does (people.ts `renamePerson`, audited).
 */
export interface AuthOptions {
  readonly db: Db;
  readonly provider: 'sqlite' | 'postgresql';
  readonly secret: string;
  /** The origin the browser uses (SHADOWBOX_PUBLIC_URL, else http://127.0.0.1:PORT). */
  readonly baseUrl: string;
  /** Every origin the browser may use (the loopback names and the public URL). */
  readonly trustedOrigins: readonly string[];
  /** Sign-in attempts per address per minute (default 10). */
  readonly signInPerAddress?: number;
}

export const sessionLifetimeSecs = 7 * 24 * 3600;

export function createAuth(options: AuthOptions) {
  const { db } = options;
  const trusted = new Set(options.trustedOrigins);
  return betterAuth({
    appName: 'Shadowbox',
    baseURL: options.baseUrl,
    basePath: '/api/auth',
    secret: options.secret,
    trustedOrigins: [...options.trustedOrigins],
    database: prismaAdapter(db, { provider: options.provider }),
    telemetry: { enabled: false },
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: 8,
      maxPasswordLength: 256,
    },
    plugins: [
      username({
        minUsernameLength: 2,
        maxUsernameLength: 32,
        usernameValidator: (name) => usernamePattern.test(name),
        usernameNormalization: normaliseUsername,
        immutableUsername: true,
      }),
    ],
    session: { expiresIn: sessionLifetimeSecs, updateAge: 24 * 3600 },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 300,
      customRules: {
        '/sign-in/*': { window: 60, max: options.signInPerAddress ?? 10 },
      },
    },
    advanced: {
      useSecureCookies: options.baseUrl.startsWith('https:'),
      // Stated, not defaulted: better-auth skips both checks when NODE_ENV is "test".
      disableOriginCheck: false,
      disableCSRFCheck: false,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
      // One address, settled on the HTTP server before Next.js (client-address.ts): the socket's,
      // or a trusted proxy's word for it.
      ipAddress: { ipAddressHeaders: ['x-forwarded-for'] },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        refuseCrossSite(ctx.request, trusted);
        refuseOwnNameChange(ctx.path, ctx.body);
        refuseOtherSignIns(ctx.path);
        const key = signInThrottleKey(ctx.path, ctx.body, ctx.request);
        if (key === null) return;
        const decision = await consumeAttempt(db, key, signInBackoff);
        if (!decision.allowed) {
          throw new APIError('TOO_MANY_REQUESTS', {
            message: `too many sign-in attempts for this user from this address; try again in ${decision.retryAfterSecs} s`,
          });
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        const key = signInThrottleKey(ctx.path, ctx.body, ctx.request);
        // Only a sign-in that made a session clears the count (a refusal makes none).
        if (key !== null && ctx.context.newSession) await clearAttempts(db, key);
      }),
    },
    databaseHooks: {
      user: {
        update: {
          // The last line behind refuseOwnNameChange: no better-auth endpoint writes a name.
          before: (data) => {
            const changed = nameFields.filter((field) => field in data);
            if (changed.length > 0) {
              throw new APIError('FORBIDDEN', {
                code: 'USERNAME_CHANGE_REFUSED',
                message: `only an admin changes a username (${changed.join(', ')})`,
              });
            }
            return Promise.resolve();
          },
        },
      },
      session: {
        create: {
          // A disabled person gets no new session (their old ones were deleted when disabled).
          before: async (session) => {
            const person = await db.user.findUnique({
              where: { id: session.userId },
              select: { disabledAt: true },
            });
            if (person === null || person.disabledAt !== null) {
              throw new APIError('FORBIDDEN', { message: 'this account is disabled' });
            }
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** The columns that name a person; only `renamePerson` (an admin) writes them. */
const nameFields = ['username', 'displayUsername', 'name'] as const;

/**
 * People do not rename themselves: a name is how admins grant, audit and disable
 * (`user disable NAME`), and a free rename would let anyone squat a name an admin means to give.
 */
function refuseOwnNameChange(path: string, body: unknown): void {
  if (path !== '/update-user' || typeof body !== 'object' || body === null) return;
  const changed = nameFields.filter((field) => field in body);
  if (changed.length > 0) {
    throw new APIError('FORBIDDEN', {
      code: 'USERNAME_CHANGE_REFUSED',
      message: `only an admin changes a username (${changed.join(', ')}); ask one to run \`shadowbox user rename\``,
    });
  }
}

/**
 * People sign in by username only. better-auth's email sign-in comes with its password settings
 * (emailAndPassword), but every person's email is the guessable placeholder, and a second way in
 * would be a second count to spread guesses over.
 */
function refuseOtherSignIns(path: string): void {
  if (!path.startsWith('/sign-in') || path === '/sign-in/username') return;
  throw new APIError('NOT_FOUND', {
    code: 'SIGN_IN_BY_USERNAME',
    message: 'sign in with a username: POST /api/auth/sign-in/username',
  });
}

/** The sign-in limit's key for a sign-in request (username and address), else null. */
function signInThrottleKey(
  path: string,
  body: unknown,
  request: Request | undefined,
): string | null {
  if (!path.startsWith('/sign-in')) return null;
  const { username } = (body ?? {}) as { username?: unknown };
  if (typeof username !== 'string') return null;
  const forwarded = request?.headers.get('x-forwarded-for') ?? null;
  const address = forwarded === null ? null : canonicalAddress(forwarded);
  return signInKey(normaliseUsername(username), addressKey(address));
}

/**
 * Login CSRF: better-auth checks the Origin of requests that carry cookies, but its username
 * sign-in takes a cookie-less cross-site POST, which would sign the victim in as the attacker.
 * Every state change here must come from one of our own origins (or from no browser at all).
 */
function refuseCrossSite(request: Request | undefined, trusted: ReadonlySet<string>): void {
  if (request === undefined || request.method === 'GET' || request.method === 'HEAD') return;
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site');
  if ((origin !== null && !trusted.has(origin)) || site === 'cross-site') {
    throw new APIError('FORBIDDEN', {
      message: `cross-site request refused: Origin ${origin ?? '(none)'} is not this server's`,
    });
  }
}
