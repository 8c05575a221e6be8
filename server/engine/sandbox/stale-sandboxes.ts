import { readFile, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { sweepRunCgroups, type CgroupSupport } from './cgroups';
import { isUnder } from './sandbox-root';

// What a sandbox is made of on the host's side; nothing else is ever killed by the sweep.
const sandboxPrograms = new Set(['setpriv', 'unshare', 'bwrap']);

/**
 * The sandboxes of `runDirs`: processes running setpriv, unshare or bubblewrap with a path in one
 * of those run directories among their arguments (every sandbox names its fstab or its /etc files
 * there). A shell an operator left in a run directory is not one of them.
 */
async function sandboxesOf(runDirs: readonly string[]): Promise<number[]> {
  const found: number[] = [];
  const entries = await readdir('/proc').catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e) && Number(e) !== process.pid)
      .map(async (entry) => {
        const [cmdline, exe] = await Promise.all([
          readFile(path.join('/proc', entry, 'cmdline'), 'utf8').catch(() => ''),
          readlink(path.join('/proc', entry, 'exe')).catch(() => ''),
        ]);
        if (!sandboxPrograms.has(path.basename(exe))) return;
        const args = cmdline.split('\0');
        if (runDirs.some((dir) => args.some((arg) => isUnder(arg, dir) && arg !== dir))) {
          found.push(Number(entry));
        }
      }),
  );
  return found;
}

/**
 * Kills the sandboxes a dead server left running in `runDirs` before their scratch is removed.
 * They should have died with it (parent-death signals), so this is the second line: their control
 * groups are emptied and removed, and every setpriv, unshare or bwrap naming one is killed.
 * Killing a PID namespace's init takes every process inside with it.
 */
export async function killStaleSandboxes(
  runDirs: readonly string[],
  cgroups: CgroupSupport | null,
  /** Whether a run (directory or control group) name belongs to a dead server. */
  isStale: (name: string) => boolean,
): Promise<number> {
  let killed = cgroups === null ? 0 : await sweepRunCgroups(cgroups, isStale);
  if (runDirs.length === 0) return killed;
  for (const pid of await sandboxesOf(runDirs)) {
    try {
      process.kill(pid, 'SIGKILL');
      killed += 1;
    } catch {
      // gone meanwhile
    }
  }
  return killed;
}
