import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
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
  const fstabPath = path.join(options.runDir, 'fstab');
  await writeFile(fstabPath, sandboxFstab(layout, { devShm: existsSync('/dev/shm'), caches }));
  return sandboxCommand(layout, argv, {
    ipPath: host.ipPath,
    fstabPath,
    readOnlyMounts: host.readOnlyMounts.filter((m) => !isInside(m, layout.root)),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
}
