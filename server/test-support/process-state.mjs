import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Plain JavaScript (typed by process-state.d.mts): vitest's config loads it.

/**
 * What a test file does that outlives it in its process: mocking a module, changing the
 * environment, the working directory or the umask. In a tier whose files share one module graph
 * per worker (isolate: false), such a file could change what the next file in that worker sees:
 * a module read once per process (pip's configuration) would keep the first file's value.
 */
const processStateChanges = [
  /\bvi\.(?:mock|doMock|stubEnv|stubGlobal)\(/,
  /\bprocess\.env(?:\.\w+|\[[^\]]+\])\s*=(?!=)/,
  /\bdelete\s+process\.env\b/,
  /\bObject\.assign\(\s*process\.env\b/,
  /\bprocess\.(?:chdir|umask)\(/,
];

/** @param {string} source */
export function changesProcessState(source) {
  return processStateChanges.some((pattern) => pattern.test(source));
}

/**
 * The files under `root` (relative to `cwd`) whose names end in `suffix` and whose source changes
 * process state: they run in a tier of their own with one module graph per file. Found from the
 * sources at every run, so a new such file can never be left in the shared tier by a forgotten list.
 *
 * @param {string} root
 * @param {string} suffix
 * @param {string} [cwd]
 */
export function filesChangingProcessState(root, suffix, cwd = process.cwd()) {
  return readdirSync(path.join(cwd, root), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(suffix) && !name.split(path.sep).includes('node_modules'))
    .map((name) => path.join(root, name))
    .filter((file) => changesProcessState(readFileSync(path.join(cwd, file), 'utf8')))
    .sort();
}
