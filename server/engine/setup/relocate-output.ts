import { constants } from 'node:fs';
import { open, readdir, readlink, rm, symlink } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
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
 * build.ninja, compile_commands.json …). Symlinks into the old workspace are re-pointed.
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
  if ((await lstatOrNull(join(dir, 'pyvenv.cfg')))?.isFile() === true) {
    files.push(join(dir, 'pyvenv.cfg'), ...(await walk(join(dir, 'bin'), false)));
    for (const lib of await readdir(join(dir, 'lib')).catch(() => [])) {
      const sitePackages = join(dir, 'lib', lib, 'site-packages');
      for (const name of await readdir(sitePackages).catch(() => [])) {
        if (/\.(pth|egg-link)$|^__editable__/.test(name)) files.push(join(sitePackages, name));
        if (name.endsWith('.dist-info')) files.push(join(sitePackages, name, 'direct_url.json'));
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

/** Files and symlinks under `dir` (never following a link), recursively or not. */
async function walk(dir: string, recursive: boolean): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (recursive) found.push(...(await walk(path, true)));
    } else if (entry.isFile() || entry.isSymbolicLink()) found.push(path);
  }
  return found;
}

async function rewriteFile(path: string, pattern: RegExp, replacement: string): Promise<boolean> {
  const info = await lstatOrNull(path);
  if (info === null) return false;
  if (info.isSymbolicLink()) {
    const target = Buffer.from(await readlink(path), 'utf8').toString('latin1');
    const next = target.replace(pattern, () => replacement);
    if (next === target || !isAbsolute(target)) return false;
    await rm(path);
    await symlink(Buffer.from(next, 'latin1').toString('utf8'), path);
    return true;
  }
  if (!info.isFile() || info.size > maxRelocatedBytes) return false;
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
