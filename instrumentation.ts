/**
 * Runs once when the Next.js server starts, before it answers requests: settles X-Forwarded-For
 * (server/auth/client-address.ts), builds the runtime (migrations, the sweep of what a
 * crash left behind) and starts the job runner, so interrupted tasks resume without waiting for a
 * request.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // First, before any request is answered: X-Forwarded-For is believed only from trusted proxies.
  const [http, https, { installForwardedForGuard }, { loadEnv }] = await Promise.all([
    import('node:http'),
    import('node:https'),
    import('./server/auth/client-address'),
    import('./server/env'),
  ]);
  const { trustedProxies } = loadEnv();
  installForwardedForGuard(http.Server, trustedProxies);
  installForwardedForGuard(https.Server, trustedProxies);
  const { getRuntime } = await import('./server/runtime');
  await getRuntime();
}
