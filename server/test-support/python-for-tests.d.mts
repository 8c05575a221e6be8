/** Prepares `env` (default: process.env) so the tests start python cheaply; see the .mjs. */
export function preparePythonForTests(env?: NodeJS.ProcessEnv): void;
