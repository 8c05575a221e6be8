#!/usr/bin/env node
// Entry point of `shadowbox` (`npx shadowbox`, or on PATH after `npm link`). Runs the build in
// dist/cli/ (made by `npm ci` and `npm run build`), which starts in a fraction of the time tsx
// needs to compile the sources; when there is no build, or a source changed since it was made,
// runs the TypeScript sources through tsx instead, so an edit is never shadowed by an old build
// (`npm run build:cli` makes the build current again). SHADOWBOX_CLI_SOURCE=1 forces the sources,
// e.g. for stack traces that point into the .ts files.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { currentBuild } from './cli-build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = process.env.SHADOWBOX_CLI_SOURCE === '1' ? null : currentBuild(root);
let main;
if (built === null) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../server/cli/main.ts'));
} else {
  ({ main } = await import(pathToFileURL(built).href));
}
process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  cwd: process.cwd(),
  env: process.env,
});
