import { constants } from 'node:fs';
import { createHash, randomUUID } from 'node:crypto';
import {
  lstat,
  mkdir,
  open,
  readFile,
  readdir,
  readlink,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { dirname, isAbsolute, join, posix } from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { z } from 'zod';
import { AppError } from '../../errors/app-error';
import type { SetupTree } from './detect-setup';

export interface SetupCacheKeyInput {
  /** A trust domain (a team id, the source URL): entries never cross it. */
  readonly scope: string;
  readonly manifests: readonly { readonly path: string; readonly content: Buffer | string }[];
  readonly commands: readonly (readonly string[])[];
  /** Program → its `--version` line (see toolchainVersions). */
  readonly toolchains: Readonly<Record<string, string>>;
  /** Environment the commands ran with that changes what they write (e.g. the plan's env). */
  readonly env?: Readonly<Record<string, string>>;
}

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');
const sortedEntries = (record: Readonly<Record<string, string>>): [string, string][] =>
  Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * The cache key of a setup: sha256 of a canonical JSON (fixed field order, manifests sorted by
 * path, each by its content's hash; the commands in their order) of everything that decides what
 * the setup writes. The platform is part of it: native addons and wheels are built for one.
 */
export function setupCacheKey(input: SetupCacheKeyInput): string {
  const manifests = [...input.manifests]
    .map((m) => [m.path, sha256(m.content)] as const)
    .sort(([a, ha], [b, hb]) => (a < b ? -1 : a > b ? 1 : ha < hb ? -1 : ha > hb ? 1 : 0));
  return sha256(
    JSON.stringify({
      version: 1,
      scope: input.scope,
      platform: `${process.platform}-${process.arch}`,
      commands: input.commands,
      manifests,
      toolchains: sortedEntries(input.toolchains),
      env: sortedEntries(input.env ?? {}),
    }),
  );
}

/** The manifests' contents from the tree, for the key (absent ones left out). */
export async function readManifests(
  tree: SetupTree,
  paths: readonly string[],
): Promise<{ path: string; content: string }[]> {
  const read = await Promise.all(
    paths.map(async (path) => ({ path, content: await tree.read(path) })),
  );
  return read.filter((m): m is { path: string; content: string } => m.content !== null);
}

const programsOf: Readonly<Record<string, readonly string[]>> = {
  npm: ['node', 'npm'],
  pnpm: ['node', 'pnpm'],
  yarn: ['node', 'yarn'],
  python3: ['python3'],
  '.venv/bin/pip': ['python3'],
  cargo: ['cargo', 'rustc'],
  go: ['go'],
  // CMake records the compilers it found in the build directory.
  cmake: ['cmake', 'cc', 'c++'],
};

/** The programs whose versions decide what `commands` write. */
export function toolchainPrograms(commands: readonly (readonly string[])[]): string[] {
  return [...new Set(commands.flatMap((argv) => programsOf[argv[0] ?? ''] ?? []))];
}

/**
 * Each program's version line, run as the setup would find it (`env`'s PATH), from `/` so that no
 * workspace file (rust-toolchain.toml, go.mod's toolchain line) makes a version query install a
 * toolchain on the host; those files are manifests, so they key the cache anyway. A program that
 * is not there is 'absent'; one that fails says how.
 */
export async function toolchainVersions(
  programs: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<Record<string, string>> {
  const versions = await Promise.all(
    programs.map(async (program) => {
      const result = await execa(program, program === 'go' ? ['version'] : ['--version'], {
        env,
        extendEnv: false,
        cwd: '/',
        stdin: 'ignore',
        all: true,
        reject: false,
        timeout: 5000,
        forceKillAfterDelay: 1000,
        maxBuffer: 1024 * 1024,
      });
      if (result.code === 'ENOENT' || result.code === 'EACCES') return [program, 'absent'];
      if (result.timedOut) return [program, 'timed out'];
      if (result.exitCode !== 0) return [program, `failed (exit ${result.exitCode ?? 'signal'})`];
      const line = result.all.split('\n').find((l) => l.trim() !== '') ?? '';
      return [program, line.trim().slice(0, 200)];
    }),
  );
  return Object.fromEntries(versions) as Record<string, string>;
}

export interface CacheEntry {
  readonly key: string;
  /** The entry's directory. */
  readonly path: string;
  /** The workspace the outputs were made in (absolute). */
  readonly workspace: string;
  /** Workspace-relative outputs the entry holds. */
  readonly outputs: readonly string[];
  readonly bytes: number;
  readonly createdAt: string;
}

const keyPattern = /^[0-9a-f]{64}$/;
const metaSchema = z.object({
  version: z.literal(1),
  key: z.string().regex(keyPattern),
  // Relocation rewrites this path wherever it occurs: never `/` or a path spelled two ways.
  workspace: z.string().refine((p) => isAbsolute(p) && posix.normalize(p) === p && p !== '/'),
  outputs: z.array(z.string()),
  bytes: z.number().int().nonnegative(),
  createdAt: z.string(),
});

function assertKey(key: string): void {
  if (!keyPattern.test(key)) throw new AppError('INVALID_ARGUMENT', 'not a setup cache key');
}

const isOutputPath = (path: string): boolean =>
  path !== '' && !path.startsWith('/') && posix.normalize(path) === path && !path.startsWith('..');

/** The outputs without those inside another one (a copy of the outer holds them). */
const outermost = (outputs: readonly string[]): string[] =>
  [...new Set(outputs)].filter((o) => !outputs.some((p) => p !== o && o.startsWith(`${p}/`)));

const lstatOrNull = (path: string) => lstat(path).catch(() => null);

/**
 * Whether the parents of `root/rel` are real directories (created when missing and `create`): a
 * symlinked parent, which setup code could plant, would make the host copy, delete or rewrite
 * something outside the workspace.
 */
async function realParents(root: string, rel: string, create: boolean): Promise<boolean> {
  const parts = rel.split('/');
  for (let i = 1; i < parts.length; i += 1) {
    const parent = join(root, ...parts.slice(0, i));
    const info = await lstatOrNull(parent);
    if (info === null && create) await mkdir(parent);
    else if (info === null || !info.isDirectory()) return false;
  }
  return true;
}

/** Whether `root/rel` is a real directory or file, reached through real directories only. */
async function realEntry(root: string, rel: string): Promise<boolean> {
  if (!(await realParents(root, rel, false))) return false;
  const info = await lstatOrNull(join(root, rel));
  return info !== null && (info.isDirectory() || info.isFile());
}

const staging = '.shadowbox';

function assertOutputs(outputs: readonly string[]): void {
  for (const output of outputs) {
    // The staging directory of restores lives in .shadowbox: its subdirectories may be outputs.
    if (!isOutputPath(output) || output === staging) {
      throw new AppError('INVALID_ARGUMENT', `not a setup output path: ${JSON.stringify(output)}`);
    }
  }
}

/** A copy-on-write copy where the filesystem can (btrfs, XFS), modes, times and links kept. */
async function copyTree(from: string, to: string): Promise<void> {
  const result = await execa(
    'cp',
    ['-a', '--reflink=auto', '--no-target-directory', '--', from, to],
    {
      reject: false,
      stdin: 'ignore',
    },
  );
  if (result.failed) {
    throw new AppError(
      'INTERNAL',
      `copying ${from} failed: ${result.stderr.trim() || result.shortMessage}`,
    );
  }
}

async function bytesOf(dir: string): Promise<number> {
  const result = await execa('du', ['-s', '-b', '--', dir], { reject: false, stdin: 'ignore' });
  return Number.parseInt(result.stdout, 10) || 0;
}

/**
 * Copies of setup outputs (node_modules, .venv, build/ …) keyed by setupCacheKey, so a task whose
 * manifests and toolchains match an earlier one restores them instead of installing again. Entries
 * are written whole into a temporary directory and renamed into place: a crash leaves a temporary
 * directory (swept later), never an entry that looks complete. Restores copy out of the entry, so
 * nothing a later run does can change what the next task gets.
 */
export class SetupCache {
  constructor(readonly dir: string) {}

  async lookup(key: string): Promise<CacheEntry | null> {
    assertKey(key);
    const path = join(this.dir, key);
    const parsed = metaSchema.safeParse(
      await readFile(join(path, 'meta.json'), 'utf8')
        .then((text) => JSON.parse(text) as unknown)
        .catch(() => null),
    );
    if (!parsed.success || parsed.data.key !== key) return null;
    const { workspace, outputs, bytes, createdAt } = parsed.data;
    for (const output of outputs) {
      if (!isOutputPath(output) || !(await realEntry(join(path, 'outputs'), output))) return null;
    }
    return { key, path, workspace, outputs, bytes, createdAt };
  }

  /** Stores the `outputs` of `workspace` that exist; a no-op when the key is already stored. */
  async store(key: string, workspace: string, outputs: readonly string[]): Promise<void> {
    assertKey(key);
    assertOutputs(outputs);
    if (!isAbsolute(workspace))
      throw new AppError('INVALID_ARGUMENT', 'workspace must be absolute');
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await this.sweep();
    if ((await this.lookup(key)) !== null) return;
    const temporary = join(this.dir, `.tmp-${process.pid}-${randomUUID()}`);
    try {
      await mkdir(join(temporary, 'outputs'), { recursive: true });
      const stored: string[] = [];
      for (const output of outermost(outputs)) {
        if (!(await realEntry(workspace, output))) continue;
        const target = join(temporary, 'outputs', output);
        await mkdir(dirname(target), { recursive: true });
        await copyTree(join(workspace, output), target);
        stored.push(output);
      }
      const meta: z.infer<typeof metaSchema> = {
        version: 1,
        key,
        workspace,
        outputs: stored,
        bytes: await bytesOf(join(temporary, 'outputs')),
        createdAt: new Date().toISOString(),
      };
      await writeFile(join(temporary, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`);
      await this.publish(temporary, key);
    } finally {
      await rm(temporary, { recursive: true, force: true });
    }
  }

  /**
   * Copies the entry's outputs into `workspace`, replacing what is there, and relocates them when
   * the workspace path differs from the one they were made in (see relocateOutput). Each output is
   * copied beside its place under `.shadowbox/` and renamed in, so a failed restore leaves no half
   * directory that a run would take for an installed one.
   */
  async restore(
    entry: CacheEntry,
    workspace: string,
  ): Promise<{ restoredPaths: string[]; durationMs: number }> {
    const started = performance.now();
    assertOutputs(entry.outputs);
    const scratch = join(workspace, staging, `restore-${randomUUID()}`);
    const refuse = (path: string): AppError =>
      new AppError('INVALID_STATE', `cannot restore into ${workspace}: ${path} is not a directory`);
    if (!(await realParents(workspace, `${staging}/x`, true))) throw refuse(staging);
    const restoredPaths: string[] = [];
    try {
      await mkdir(scratch);
      for (const output of entry.outputs) {
        if (!(await realParents(workspace, output, true))) throw refuse(dirname(output));
        const staged = join(scratch, String(restoredPaths.length));
        await copyTree(join(entry.path, 'outputs', output), staged);
        if (entry.workspace !== workspace) {
          await relocateOutput(staged, entry.workspace, workspace);
        }
        await rm(join(workspace, output), { recursive: true, force: true });
        await rename(staged, join(workspace, output));
        restoredPaths.push(output);
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
    return { restoredPaths, durationMs: Math.round(performance.now() - started) };
  }

  private async publish(temporary: string, key: string): Promise<void> {
    const entry = join(this.dir, key);
    try {
      await rename(temporary, entry);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
      // A concurrent store finished first (keep it), or a broken entry is in the way (replace it).
      if ((await this.lookup(key)) !== null) return;
      const trash = join(this.dir, `.trash-${process.pid}-${randomUUID()}`);
      await rename(entry, trash);
      await rm(trash, { recursive: true, force: true });
      await rename(temporary, entry);
    }
  }

  /** Removes what crashed stores (of processes no longer alive) left behind. */
  private async sweep(): Promise<void> {
    for (const name of await readdir(this.dir)) {
      const pid = /^\.(?:tmp|trash)-(\d+)-/.exec(name)?.[1];
      if (pid === undefined || Number(pid) === process.pid || processAlive(Number(pid))) continue;
      await rm(join(this.dir, name), { recursive: true, force: true });
    }
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

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
