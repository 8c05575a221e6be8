import { readFile, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { sweepRunCgroups, type CgroupSupport } from './cgroups';

const isUnder = (p: string, dir: string): boolean => p === dir || p.startsWith(`${dir}/`);

/**
 * Processes whose command line or working directory names one of `runDirs`: the sandboxes (their
 * setpriv/unshare/bwrap chain names the run directory in its arguments and runs in it).
 */
async function processesUsing(runDirs: readonly string[]): Promise<number[]> {
  const found: number[] = [];
  const entries = await readdir('/proc').catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e) && Number(e) !== process.pid)
      .map(async (entry) => {
        const [cmdline, cwd] = await Promise.all([
          readFile(path.join('/proc', entry, 'cmdline'), 'utf8').catch(() => ''),
          readlink(path.join('/proc', entry, 'cwd')).catch(() => ''),
        ]);
        const args = cmdline.split('\0');
        const uses = runDirs.some(
          (dir) => isUnder(cwd, dir) || args.some((arg) => isUnder(arg, dir)),
        );
        if (uses) found.push(Number(entry));
      }),
  );
  return found;
}

/**
 * Kills the sandboxes a dead server left running in `runDirs` before their scratch is removed.
 * They should have died with it (parent-death signals), so this is the second line: their control
 * groups are emptied and removed, and any process still naming a run directory is killed.
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
  for (const pid of await processesUsing(runDirs)) {
    try {
      process.kill(pid, 'SIGKILL');
      killed += 1;
    } catch {
      // gone meanwhile
    }
  }
  return killed;
}
