#!/usr/bin/env node
// Entry point of `npx shadowbox`: runs the TypeScript CLI through tsx's loader, so the command works
// right after `npm install` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli/main.ts');
const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  cwd: process.cwd(),
  env: process.env,
});
process.exitCode = code;
