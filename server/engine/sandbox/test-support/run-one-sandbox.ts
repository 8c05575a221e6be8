/**
 * A stand-in server for the kill -9 regression test: runs one shadow whose command sleeps with a
 * marker in its argv, prints `started` once the run is under way, and waits to be killed.
 * Usage: node --import tsx run-one-sandbox.ts DATA_DIR WORKSPACE MARKER
 */
import { createShadowRunner } from '../../shadow';

const [dataDir, workspace, marker] = process.argv.slice(2);
if (dataDir === undefined || workspace === undefined || marker === undefined) {
  throw new Error('usage: run-one-sandbox.ts DATA_DIR WORKSPACE MARKER');
}
const runner = await createShadowRunner({ dataDir, mode: 'overlay' });
const run = runner.run({
  workspace,
  command: [
    '/bin/sh',
    '-c',
    `python3 -c "import time; time.sleep(300)" ${marker} & python3 -c "import time; time.sleep(300)" ${marker}; wait`,
  ],
  hypotheses: [{ name: 'sleeper', edits: [], delete: [] }],
  timeoutMs: 600_000,
});
process.stdout.write('started\n');
await run;
