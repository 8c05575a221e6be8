import { createHash } from 'node:crypto';
import { execa } from 'execa';
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
