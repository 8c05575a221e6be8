/**
 * A web process of a scale-out deployment for tests and benchmarks: the runtime with role `web`
 * (it schedules, it runs no task) and the REST API on a free port, without a Next build. Run with
 * tsx; the environment configures it as it does `shadowbox serve`. Prints `READY <url>` once it
 * answers; SIGTERM closes it.
 */
import { loadEnv } from '../env';
import { createRuntime } from '../runtime';
import { serveRest } from './rest-server';

const runtime = await createRuntime(loadEnv(), { role: 'web' });
const { url, server } = await serveRest(runtime);
process.stdout.write(`READY ${url}\n`);
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void runtime.close().then(() => process.exit(0));
});
