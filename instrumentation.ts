/**
 * Runs once when the Next.js server starts: builds the runtime (migrations, the sweep of what a
 * crash left behind) and starts the job runner, so interrupted tasks resume without waiting for a
 * request.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { getRuntime } = await import('./server/runtime');
  await getRuntime();
}
