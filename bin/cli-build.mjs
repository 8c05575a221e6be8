// Which code bin/shadowbox.mjs runs: the build in dist/cli/ (scripts/build-cli.mjs) when it is
// there and every source it was built from is unchanged, else nothing (the bin then runs the
// sources through tsx). Plain JavaScript on purpose: it decides before anything is compiled.
//
// Why compare each source's mtime and size with the manifest rather than "any file under server/
// newer than the build": the manifest names exactly what the build bundled (the generated Prisma
// clients included, node_modules excluded), so one stat per source (~260, about a millisecond) is
// the whole check, with no directory walk; and equality also catches a source replaced by an
// older file (a `git checkout` of another branch, `cp -p`, an editor's rename), which "newer than"
// would miss. A new source only matters once an existing one imports it, and that edit is caught.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The built entry's path if the build in `outdir` is complete and current, else null. */
export function currentBuild(root, outdir = path.join(root, 'dist', 'cli')) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(outdir, 'manifest.json'), 'utf8'));
  } catch {
    return null; // not built (or an older layout): the sources are the truth
  }
  for (const input of manifest.inputs) {
    const now = statSync(path.join(root, input.path), { throwIfNoEntry: false });
    if (now === undefined || now.mtimeMs !== input.mtimeMs || now.size !== input.size) return null;
  }
  return path.join(outdir, manifest.entry);
}
