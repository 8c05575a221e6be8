import { createHash } from 'node:crypto';
import { execa } from 'execa';

export interface SetupCacheKeyInput {
  /** A trust domain (the task's person or team, and its Git URL): entries never cross it. */
  readonly scope: string;
  /**
   * The Git tree id of the task's baseline: every tracked file, so every manifest and lockfile
   * anywhere (workspace packages, `file:` dependencies, setup.py, Cargo.toml and go.mod files)
   * and every file a lifecycle script names. What setup writes comes after the baseline commit,
   * so it is not part of it. Simpler than listing what each ecosystem reads, and never too narrow.
   */
  readonly tree: string;
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
 * The cache key of a setup: sha256 of a canonical JSON (fixed field order; the commands in their
 * order) of everything that decides what the setup writes. The platform is part of it: native
 * addons and wheels are built for one.
 */
export function setupCacheKey(input: SetupCacheKeyInput): string {
  return sha256(
    JSON.stringify({
      version: 2,
      scope: input.scope,
      platform: `${process.platform}-${process.arch}`,
      commands: input.commands,
      tree: input.tree,
      toolchains: sortedEntries(input.toolchains),
      env: sortedEntries(input.env ?? {}),
    }),
  );
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
 * toolchain on the host; those files are tracked, so they key the cache anyway. A program that
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
