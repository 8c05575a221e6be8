import { constants } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { lstatOrNull } from './setup-cache-fs';

/** Largest text file relocation rewrites; larger ones are left as they are. */
export const maxRelocatedBytes = 4 * 1024 * 1024;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Rewrites the absolute workspace path that a virtualenv or a CMake build directory holds to the
 * new one, in a restored copy at `dir`; returns how many files and links it changed.
 *
 * A venv: pyvenv.cfg, everything in bin/ (pip's shebangs, activate*), and what points back at the
 * project in site-packages (*.pth, __editable__* finders, *.egg-link, direct_url.json). A CMake
 * build dir (it holds CMakeCache.txt): every text file in it (the cache, Makefiles, *.cmake,
 * build.ninja, compile_commands.json …). Links are never followed nor rewritten: a planted
 * `bin → <another task's git directory>` would otherwise have the server rewrite files there, and
 * the cache refuses absolute links anyway (digestOutput).
 *
 * Limits: only text files of at most maxRelocatedBytes without a NUL byte are rewritten, so paths
 * compiled into binaries (debug info, a C extension's rpath) keep the old workspace, and a file
 * larger than that keeps it too; an occurrence glued to other path characters (`/ws-old` for
 * `/ws`) is not one. A much longer new path can push a shebang past the kernel's limit. Node's
 * node_modules and Cargo's target/ are copied as they are: they hold no path that a run needs.
 * Modes and times are kept, so make and ninja see the same dependency times as before.
 */
export async function relocateOutput(
  dir: string,
  fromWorkspace: string,
  toWorkspace: string,
): Promise<number> {
  const toLatin1 = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');
  const pattern = new RegExp(
    `(?<![\\w.-])${escapeRegExp(toLatin1(fromWorkspace))}(?![\\w.-])`,
    'g',
  );
  const replacement = toLatin1(toWorkspace);
  const files: string[] = [];
  if (!(await isRealDir(dir))) return 0;
  if ((await lstatOrNull(join(dir, 'pyvenv.cfg')))?.isFile() === true) {
    files.push(join(dir, 'pyvenv.cfg'), ...(await walk(join(dir, 'bin'), false)));
    for (const lib of await realSubdirs(join(dir, 'lib'))) {
      const sitePackages = join(dir, 'lib', lib, 'site-packages');
      if (!(await isRealDir(sitePackages))) continue;
      for (const entry of await readdir(sitePackages, { withFileTypes: true })) {
        const path = join(sitePackages, entry.name);
        if (/\.(pth|egg-link)$|^__editable__/.test(entry.name)) files.push(path);
        if (entry.name.endsWith('.dist-info') && entry.isDirectory()) {
          files.push(join(path, 'direct_url.json'));
        }
      }
    }
  } else if ((await lstatOrNull(join(dir, 'CMakeCache.txt')))?.isFile() === true) {
    files.push(...(await walk(dir, true)));
  }
  let rewritten = 0;
  for (const file of files) {
    if (await rewriteFile(file, pattern, replacement)) rewritten += 1;
  }
  return rewritten;
}

const isRealDir = async (path: string): Promise<boolean> =>
  (await lstatOrNull(path))?.isDirectory() === true;

async function realSubdirs(dir: string): Promise<string[]> {
  if (!(await isRealDir(dir))) return [];
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.filter((e) => e.isDirectory()).map((e) => e.name);
}

/**
 * Files under `dir`, recursively or not, through real directories only: `dir` itself is checked
 * with lstat (readdir would follow a link), and a Dirent's type never follows one.
 */
async function walk(dir: string, recursive: boolean): Promise<string[]> {
  if (!(await isRealDir(dir))) return [];
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (recursive) found.push(...(await walk(path, true)));
    } else if (entry.isFile()) found.push(path);
  }
  return found;
}

async function rewriteFile(path: string, pattern: RegExp, replacement: string): Promise<boolean> {
  const info = await lstatOrNull(path);
  if (info === null || !info.isFile() || info.size > maxRelocatedBytes) return false;
  // Every parent is a real directory (walk); O_NOFOLLOW refuses a link put in the file's place.
  const handle = await open(path, constants.O_RDWR | constants.O_NOFOLLOW);
  try {
    const bytes = await handle.readFile();
    if (bytes.includes(0)) return false;
    // latin1 maps every byte to one character and back: bytes that are not UTF-8 survive.
    const text = bytes.toString('latin1');
    const next = text.replace(pattern, () => replacement);
    if (next === text) return false;
    const out = Buffer.from(next, 'latin1');
    await handle.truncate(0);
    await handle.write(out, 0, out.length, 0);
    await handle.utimes(info.atime, info.mtime);
    return true;
  } finally {
    await handle.close();
  }
}
