import type { RunCgroup } from './cgroups';
import type { LimitExceeded, RunLimits } from './run-limits';
import { settledTreeUsage, treeUsage, type TreeUsage } from './tree-usage';

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
 * The fastest a run is assumed to fill its upper layer, sustained: beyond a burst of dirty pages
 * (which the run's memory cap bounds) writes proceed at the disk's writeback speed, well below this.
 */
const assumedWriteBytesPerSec = 2 * 1024 * 1024 * 1024;
/** The fastest a run is assumed to create files, sustained (a C loop of creat on overlayfs manages about this). */
const assumedFilesPerSec = 100_000;

/**
 * When to measure the upper layer again: never sooner than the walk's own cost allows (≤ ~5% of a
 * core), and no sooner than the run could fill the room left (bytes at `assumedWriteBytesPerSec`,
 * inodes at `assumedFilesPerSec`, whichever runs out first). A cargo run far below its caps is
 * then measured every second or two instead of five times a second: each measurement is a
 * process spawn (~10 ms of CPU), and four parallel runs on two cores paid ~2 CPU seconds for
 * them per round.
 */
export function nextCheckMs(walkMs: number, used: TreeUsage, caps: TreeUsage): number {
  const bytesRoomMs = ((caps.bytes - used.bytes) / assumedWriteBytesPerSec) * 1000;
  const inodesRoomMs = ((caps.inodes - used.inodes) / assumedFilesPerSec) * 1000;
  const headroomMs = Math.min(bytesRoomMs, inodesRoomMs);
  return Math.min(maxIntervalMs, Math.max(minIntervalMs, walkMs * 20, headroomMs));
}

/**
 * Watches a running sandbox for the caps a kernel does not end by itself: the OOM killer kills
 * one process (the run may go on without it) and a fork refused at the process cap only fails
 * that fork, so either is turned into the end of the run; the disk and inode caps are checked by
 * measuring the upper layer, as often as `nextCheckMs` says.
 */
export function watchRun(options: RunWatchOptions): RunWatch {
  const { limits, cgroup, measured } = options;
  const caps: TreeUsage = { bytes: limits.maxDiskMb * 1024 * 1024, inodes: limits.maxInodes };
  let exceeded: LimitExceeded | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  let diskDueAt = 0;

  /**
   * Resolves with the delay until the next check. The control group's counters are two small
   * reads, looked at every time; the upper layer only when `nextCheckMs` says it is due.
   */
  const check = async (force = false): Promise<number> => {
    if (cgroup !== null) {
      const usage = await cgroup.usage();
      if (usage.oomKills > 0) exceeded ??= 'memory';
      else if (usage.pidsCapHits > 0) exceeded ??= 'pids';
    }
    const started = performance.now();
    if (exceeded === null && measured.length > 0 && (force || started >= diskDueAt)) {
      // The last look (`stop`, the run has exited) may walk small trees here; a live run's
      // trees are du's.
      const used = await (force ? settledTreeUsage : treeUsage)(measured);
      if (used.bytes >= caps.bytes) exceeded = 'disk';
      else if (used.inodes > caps.inodes) exceeded = 'inodes';
      diskDueAt = started + nextCheckMs(performance.now() - started, used, caps);
    }
    const untilDisk = measured.length > 0 ? diskDueAt - performance.now() : maxIntervalMs;
    return cgroup !== null ? minIntervalMs : Math.max(minIntervalMs, untilDisk);
  };
  const tick = (): void => {
    inFlight = check().then(
      (delayMs) => {
        if (exceeded !== null) options.onExceeded(exceeded);
        else if (!stopped) timer = setTimeout(tick, delayMs);
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
      if (exceeded === null) await check(true).catch(() => 0);
      return exceeded;
    },
  };
}
