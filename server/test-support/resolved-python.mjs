import { execFileSync } from 'node:child_process';
import path from 'node:path';

// Plain JavaScript (typed by resolved-python.d.mts): the vitest and Playwright configs load it.

/**
 * Puts the interpreter that pyenv's `python3` shim would start first on this process's PATH, so
 * the tests' children (and their sandboxes, which keep the host's PATH order) start it directly.
 *
 * The shims are bash scripts that ask pyenv which interpreter to run at every start: about one
 * CPU-second each on these machines, and the suites start python several hundred times (every
 * pytest run, in and out of sandboxes). Measured over one CI run: 113 CPU-seconds of bash,
 * on two cores that are busy all the way. The interpreter is the same one; only the lookup goes.
 * Without pyenv, or when it names no interpreter, PATH stays as it is.
 *
 * @param {NodeJS.ProcessEnv} [env]
 */
export function preferResolvedPython(env = process.env) {
  const entries = (env.PATH ?? '').split(':');
  if (!entries.some((entry) => /\/\.?pyenv\/(.+\/)?shims$/.test(entry))) return;
  let python;
  try {
    python = execFileSync('pyenv', ['which', 'python3'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      env,
    }).trim();
  } catch {
    return;
  }
  if (!path.isAbsolute(python)) return;
  const dir = path.dirname(python);
  env.PATH = [dir, ...entries.filter((entry) => entry !== dir)].join(':');
}
