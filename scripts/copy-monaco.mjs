// Copies Monaco's AMD build into public/monaco/vs (run by `npm ci` through the postinstall script).
//
// The editor is served by this app itself: @monaco-editor/react would otherwise load it from a CDN,
// which a self-hosted deployment may not reach and should not trust. The copy is generated (and
// git-ignored), so it always matches the installed monaco-editor version.
import { access, cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const root = path.dirname(import.meta.dirname);
const packageDir = path.join(root, 'node_modules', 'monaco-editor');
const source = path.join(packageDir, 'min', 'vs');
const target = path.join(root, 'public', 'monaco', 'vs');
const stamp = path.join(root, 'public', 'monaco', 'VERSION');

const { version } = JSON.parse(await readFile(path.join(packageDir, 'package.json'), 'utf8'));
const copied = await readFile(stamp, 'utf8').catch(() => null);
const complete = await access(path.join(target, 'loader.js')).then(
  () => true,
  () => false,
);
if (copied?.trim() === version && complete) {
  console.log(`monaco-editor ${version} is already in public/monaco`);
} else {
  // Never a mix of two versions: the chunk names carry content hashes.
  await rm(target, { recursive: true, force: true });
  // Type declarations are not needed at run time, and `tsc -p .` would pick them up.
  await cp(source, target, { recursive: true, filter: (file) => !file.endsWith('.d.ts') });
  await writeFile(stamp, `${version}\n`);
  console.log(`copied monaco-editor ${version} to public/monaco/vs`);
}
