import { getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

/** better-auth's endpoints: sign-in, sign-out, the session (server/auth/auth.ts). */
async function handle(request: Request): Promise<Response> {
  return (await getRuntime()).accounts.auth.handler(request);
}

export { handle as GET, handle as POST };
