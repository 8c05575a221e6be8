import { TRPCError } from '@trpc/server';
import { isAppError } from '../../errors/app-error';
import { getRuntime } from '../../runtime';
import { createContextInner } from './context';
import { createCaller } from './root';

/**
 * The UI's procedures called in-process, for pages rendered on the server, as the person whose
 * session cookie the page request carries (null: nobody signed in, which the page redirects).
 */
export async function serverCaller(headers: Headers) {
  const runtime = await getRuntime();
  const actor = await runtime.accounts.sessionActor(headers);
  return { actor, caller: createCaller(createContextInner({ runtime, actor })) };
}

/** A refusal that means "there is no such task" (unknown, or not even a task id). */
export function isNoSuchTask(error: unknown): boolean {
  if (!(error instanceof TRPCError)) return false;
  if (error.code === 'BAD_REQUEST' || error.code === 'NOT_FOUND') return true;
  return isAppError(error.cause) && error.cause.code === 'NOT_FOUND';
}
