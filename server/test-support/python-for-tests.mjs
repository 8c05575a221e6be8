import { execFileSync } from 'node:child_process';
import path from 'node:path';

// Plain JavaScript (typed by python-for-tests.d.mts): the vitest and Playwright configs load it.

/**
 * Makes this process's python cheaper to start for the tests' children and their sandboxes:
 * the two changes below are worth about three CPU-seconds per pytest run on these machines,
 * and the suites run pytest a few hundred times on two cores that are busy all the way.
 *
 * @param {NodeJS.ProcessEnv} [env]
 */
export function preparePythonForTests(env = process.env) {
  preferResolvedPython(env);
  // The machines' interpreter carries hypothesis and pytest-benchmark, whose plugins pytest
  // imports at every start (1.8 CPU-s, nearly all of it hypothesis); no fixture uses either. The
  // sandbox passes this variable through from the host (sandbox-env.ts).
  env.PYTEST_DISABLE_PLUGIN_AUTOLOAD ??= '1';
}

/**
 * Puts the interpreter that pyenv's `python3` shim would start first on PATH, so the tests'
 * children (and their sandboxes, which keep the host's PATH order) start it directly.
 *
 * The shims are bash scripts that ask pyenv which interpreter to run at every start: about one
 * CPU-second each (113 CPU-seconds of bash over one CI run). The interpreter is the same one;
 * only the lookup goes. Without pyenv, or when it names no interpreter, PATH stays as it is.
 *
 * @param {NodeJS.ProcessEnv} env
 */
function preferResolvedPython(env) {
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
