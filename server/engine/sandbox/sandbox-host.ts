import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  sandboxCommand,
  sandboxFstab,
  type CacheOverlay,
  type SandboxCommand,
  type SandboxLayout,
} from './sandbox-command';

/** What the probe learned about this machine, needed to build every sandboxed command. */
export interface SandboxHost {
  readonly ipPath: string;
  /** Host mount points to make read-only inside each sandbox. */
  readonly readOnlyMounts: readonly string[];
}

const isInside = (dir: string, root: string): boolean => {
  const relative = path.relative(root, dir);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

// The devices a test may need; everything else of the host's /dev stays out of sight.
const hostDevices = ['null', 'zero', 'full', 'random', 'urandom', 'tty'].filter((d) =>
  existsSync(`/dev/${d}`),
);
const devLinks: readonly [string, string][] = [
  ['ptmx', 'pts/ptmx'],
  ['fd', '/proc/self/fd'],
  ['stdin', '/proc/self/fd/0'],
  ['stdout', '/proc/self/fd/1'],
  ['stderr', '/proc/self/fd/2'],
];

/** Lays out the run's /dev: placeholders to bind the host's devices onto, mount points, links. */
async function prepareDev(dir: string): Promise<{ dir: string; devices: readonly string[] }> {
  await Promise.all([
    mkdir(path.join(dir, 'pts'), { recursive: true }),
    mkdir(path.join(dir, 'shm'), { recursive: true }),
  ]);
  await Promise.all([
    ...hostDevices.map((device) => writeFile(path.join(dir, device), '')),
    ...devLinks.map(([name, target]) => symlink(target, path.join(dir, name))),
  ]);
  return { dir, devices: hostDevices };
}

/**
 * Writes the run's fstab into `runDir` and builds the command. Host mounts at or below the
 * workspace are left alone: remounting that path would hit the overlay stacked on it.
 */
export async function prepareSandbox(
  host: SandboxHost,
  layout: SandboxLayout,
  argv: readonly string[],
  options: {
    readonly runDir: string;
    readonly cwd?: string;
    /** Host directories each run may write through a private overlay (see CacheOverlay). */
    readonly caches?: readonly string[];
  },
): Promise<SandboxCommand> {
  const caches: CacheOverlay[] = [];
  for (const [i, dir] of (options.caches ?? []).entries()) {
    const base = path.join(options.runDir, `cache-${i}`);
    const cache = { dir, upper: path.join(base, 'upper'), work: path.join(base, 'work') };
    await Promise.all([
      mkdir(cache.upper, { recursive: true }),
      mkdir(cache.work, { recursive: true }),
    ]);
    caches.push(cache);
  }
  const dev = await prepareDev(path.join(options.runDir, 'dev'));
  const fstabPath = path.join(options.runDir, 'fstab');
  await writeFile(fstabPath, sandboxFstab(layout, { dev, caches }));
  return sandboxCommand(layout, argv, {
    ipPath: host.ipPath,
    fstabPath,
    readOnlyMounts: host.readOnlyMounts.filter((m) => !isInside(m, layout.root)),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
}
