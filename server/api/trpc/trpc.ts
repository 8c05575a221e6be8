import { initTRPC } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { Actor } from '../../auth';
import { AppError } from '../../errors/app-error';
import type { Context } from './context';
import { describeError } from './error-shape';
import { refuseCrossSite, requireUi } from './request-guard';

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const described = describeError(error);
    // No stack, even in development: the UI shows `message`, and switches on `appCode`.
    return {
      message: described.message,
      code: TRPC_ERROR_CODES_BY_KEY[described.code],
      data: {
        code: described.code,
        httpStatus: described.httpStatus,
        appCode: described.appCode,
        path: shape.data.path,
      },
    };
  },
  sse: {
    // Pings keep proxies from closing a quiet stream; a stream silent for longer reconnects.
    ping: { enabled: true, intervalMs: 10_000 },
    client: { reconnectAfterInactivityMs: 25_000 },
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

function signedIn(actor: Actor | null): Actor {
  if (actor === null) throw new AppError('UNAUTHENTICATED', 'sign in first');
  return actor;
}

/**
 * Event streams: an EventSource cannot send the UI header, so only cross-site use is refused;
 * the session cookie still says who asks.
 */
export const streamProcedure = t.procedure.use(({ ctx, next }) => {
  refuseCrossSite(ctx.origin);
  return next({ ctx: { ...ctx, actor: signedIn(ctx.actor) } });
});

/** Calls made by the Shadowbox UI (see request-guard.ts) for a signed-in person. */
export const authedProcedure = t.procedure.use(({ ctx, next }) => {
  requireUi(ctx.origin);
  return next({ ctx: { ...ctx, actor: signedIn(ctx.actor) } });
});

/** Calls made by the UI before anyone signs in (the first-run set-up page). */
export const anonymousProcedure = t.procedure.use(({ ctx, next }) => {
  requireUi(ctx.origin);
  return next();
});
