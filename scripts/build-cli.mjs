// Builds the `shadowbox` command into dist/cli/ (run by `npm ci` through the postinstall script,
// by `npm run build` and by `npm run build:cli`), so bin/shadowbox.mjs starts plain JavaScript
// instead of compiling the TypeScript sources through tsx at every start.
//
// - ESM with code splitting: server/cli/main.ts imports each command dynamically, and every such
//   import stays a chunk of its own, so `shadowbox parse` loads the parsers and nothing else.
// - Packages stay external (imported from node_modules at run time, as from the sources), except
//   the few pure-JavaScript ones every run-time command loads (`bundledPackages`): loading execa,
//   zod, diff and p-limit from node_modules opened 268 files and took ~0.3 s of a `shadow-run`
//   start, bundled ~0.1 s. The Prisma clients generated into server/db/generated/ are not
//   packages: they are bundled like any source, which is why this runs after
//   `prisma/generate.mjs` and why the manifest lists them.
// - dist/cli/ is two levels under the checkout, like server/cli/ and server/db/, so the modules that
//   find the checkout from their own location see the same root from either (see `located` below).
// - manifest.json records every bundled source with its mtime and size; the bin runs the build
//   only while all of them are unchanged (bin/cli-build.mjs), so an edited source is never shadowed
//   by an old build.
// - The build is written next to dist/cli/ and swapped in, so a concurrent start sees the old build,
//   the new one, or none (and then falls back to tsx), never half of one.
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as esbuild from 'esbuild';

const root = path.dirname(import.meta.dirname);
export const cliOutdir = path.join(root, 'dist', 'cli');
export const manifestName = 'manifest.json';

/**
 * Bundled sources that use their own location (import.meta.url/dirname/filename), each with why
 * that still holds from dist/cli/. A new one fails the build until it is checked and listed here.
 */
const located = new Map([
  ['server/cli/project-root.ts', 'two levels up is the checkout from server/cli/ and dist/cli/'],
  ['server/db/migration-files.ts', 'two levels up is the checkout from server/db/ and dist/cli/'],
  ['server/db/schema-engine.ts', 'createRequire only: packages resolve from dist/cli/ as well'],
  ['server/engine/egress/forwarder.ts', 'its egress-forwarder.mjs is copied next to the chunks'],
  ['server/engine/workspace/git-credential.ts', 'its git-askpass.sh is copied next to the chunks'],
  ['server/db/generated/sqlite/client.ts', "sets __dirname, which Prisma's runtime never reads"],
  ['server/db/generated/postgres/client.ts', "sets __dirname, which Prisma's runtime never reads"],
  [
    'server/engine/shadow/canaries.ts',
    'import.meta only in the text of a canary it writes into a test file, never its own',
  ],
]);
/** Files read at run time next to the module that names them (see `located`). */
const assets = [
  'server/engine/egress/egress-forwarder.mjs',
  'server/engine/workspace/git-askpass.sh',
];

const selfLocating = /\bimport\.meta\.(url|dirname|filename)\b/;

/** @type {esbuild.Plugin} */
const checkSelfLocating = {
  name: 'check-self-locating',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
      const relative = path.relative(root, args.path).split(path.sep).join('/');
      if (relative.startsWith('node_modules/')) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (selfLocating.test(stripComments(text)) && !located.has(relative)) {
        return {
          errors: [
            {
              text: `${relative} uses import.meta to find files, but in dist/cli/ it sits elsewhere: check that it works from there and list it in scripts/build-cli.mjs`,
            },
          ],
        };
      }
      return undefined;
    });
  },
};

/**
 * Bundled with everything they import; `npm ci` reruns this build (postinstall), so an upgraded
 * package is never shadowed by an old copy. Only plain JavaScript that finds no file of its own at
 * run time belongs here.
 */
const bundledPackages = new Set(['execa', 'zod', 'diff', 'p-limit']);

const packageOf = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** @type {esbuild.Plugin} */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    // Bare specifiers: not relative or absolute (esbuild's filters have no lookahead).
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@/')) return undefined; // the sources' own alias (tsconfig)
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      // What a bundled package imports is bundled with it.
      const fromPackage = args.importer.split(path.sep).includes('node_modules');
      if (fromPackage || bundledPackages.has(packageOf(args.path))) return undefined;
      return { path: args.path, external: true };
    });
  },
};

// CommonJS inside a bundled package (cross-spawn, under execa) calls `require` for Node's own
// modules; an ES module has none unless it is made.
const requireBanner =
  "import { createRequire as __shadowboxCreateRequire } from 'node:module'; const require = __shadowboxCreateRequire(import.meta.url);";

/** Good enough to ignore `import.meta.url` named in a comment; code is never rewritten. */
function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** Builds into `outdir` (default dist/cli/); returns the manifest written there. */
export async function buildCli({ outdir = cliOutdir } = {}) {
  const staging = `${outdir}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: { main: 'server/cli/main.ts' },
      outdir: staging,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.9',
      tsconfig: 'tsconfig.json',
      metafile: true,
      logLevel: 'warning',
      banner: { js: requireBanner },
      plugins: [externalPackages, checkSelfLocating],
    });
    for (const asset of assets) {
      await copyFile(path.join(root, asset), path.join(staging, path.basename(asset)));
    }
    const inputs = [];
    for (const input of Object.keys(result.metafile.inputs).sort()) {
      const { mtimeMs, size } = await stat(path.join(root, input));
      inputs.push({ path: input, mtimeMs, size });
    }
    for (const asset of assets) {
      const { mtimeMs, size } = await stat(path.join(root, asset));
      inputs.push({ path: asset, mtimeMs, size });
    }
    const manifest = { esbuild: esbuild.version, entry: 'main.js', inputs };
    // Written last: a staging directory without a manifest is never taken for a build.
    await writeFile(path.join(staging, manifestName), `${JSON.stringify(manifest)}\n`);
    await swapIn(staging, outdir);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function swapIn(staging, outdir) {
  await mkdir(path.dirname(outdir), { recursive: true });
  const old = `${outdir}.old-${process.pid}`;
  await rename(outdir, old).catch((error) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(staging, outdir);
  // A process already running the old build has loaded its command's chunks at start (the only
  // dynamic imports after that are of packages), so deleting them now breaks nothing.
  await rm(old, { recursive: true, force: true });
}

if (process.argv[1] === import.meta.filename) {
  const started = performance.now();
  const { inputs } = await buildCli();
  const ms = Math.round(performance.now() - started);
  console.log(`built the shadowbox CLI into dist/cli (${inputs.length} sources, ${ms} ms)`);
}
