import { execa } from 'execa';
import type { RunCgroup } from './cgroups';
import type { LimitExceeded, RunLimits } from './run-limits';

/**
 * Bytes the trees occupy on disk (allocated blocks, so sparse files count as written), by GNU du:
 * one process in C (a cargo upper of ~1,000 files in a few ms), walking with openat, so no path
 * length stops it. Files that vanish during the walk make du complain and exit 1; its total
 * still stands.
 */
export async function diskUsage(dirs: readonly string[]): Promise<number> {
  const result = await execa('du', ['-s', '-c', '-x', '-B1', '--', ...dirs], {
    reject: false,
    extendEnv: false,
    env: { LC_ALL: 'C', PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdin: 'ignore',
    stderr: 'ignore',
  });
  const total = /^(\d+)\ttotal$/m.exec(result.stdout);
  if (total?.[1] === undefined) {
    throw new Error(`du could not measure ${dirs.join(', ')}: exit ${String(result.exitCode)}`);
  }
  return Number(total[1]);
}

export interface RunWatchOptions {
  readonly limits: RunLimits;
  readonly cgroup: RunCgroup | null;
  /** Directories on disk the run writes into (its shadow's upper layer, its cache overlays). */
  readonly measured: readonly string[];
  /** Called once, with the first cap the run went past; the caller kills the run. */
  readonly onExceeded: (limit: LimitExceeded) => void;
}

export interface RunWatch {
  /** Stops watching; resolves with the cap the run went past, if any (checked once more). */
  stop(): Promise<LimitExceeded | null>;
}

const minIntervalMs = 200;
const maxIntervalMs = 5_000;

/**
 * Watches a running sandbox for the caps a kernel does not end by itself: the OOM killer kills
 * one process (the run may go on without it) and a fork refused at the process cap only fails
 * that fork, so either is turned into the end of the run; the disk cap is checked by measuring the
 * upper layer. Measuring costs a walk of the upper layer, so its interval grows with the walk's
 * time (≤ ~5% of a core).
 */
export function watchRun(options: RunWatchOptions): RunWatch {
  const { limits, cgroup, measured } = options;
  const diskBytes = limits.maxDiskMb * 1024 * 1024;
  let exceeded: LimitExceeded | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  const check = async (): Promise<number> => {
    const started = performance.now();
    if (cgroup !== null) {
      const usage = await cgroup.usage();
      if (usage.oomKills > 0) exceeded ??= 'memory';
      else if (usage.pidsCapHits > 0) exceeded ??= 'pids';
    }
    if (exceeded === null && measured.length > 0) {
      if ((await diskUsage(measured)) >= diskBytes) exceeded = 'disk';
    }
    return performance.now() - started;
  };
  const tick = (): void => {
    inFlight = check().then(
      (ms) => {
        if (exceeded !== null) options.onExceeded(exceeded);
        else if (!stopped)
          timer = setTimeout(tick, Math.min(maxIntervalMs, Math.max(minIntervalMs, ms * 20)));
      },
      () => {
        if (!stopped) timer = setTimeout(tick, maxIntervalMs);
      },
    );
  };
  timer = setTimeout(tick, minIntervalMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
      // A run can go past a cap just before it ends (a fork bomb that gives up, an OOM kill).
      if (exceeded === null) await check().catch(() => 0);
      return exceeded;
    },
  };
}
