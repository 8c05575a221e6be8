import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureTopDir } from '../fs/top-dir';
import { isProcessAlive } from '../process/process-alive';
import { readJournal, restoreJournal } from './inplace-journal';

/**
 * Per-run scratch directories (overlay upper/work, HOME, TMPDIR) live under one root, named after
 * the owning process so a sweep at start-up removes only what dead processes left behind.
 */
const runPrefix = 'run-';

export async function createRunDir(root: string): Promise<string> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  // Each run's upper layer in a block group of its own, away from the files of deleted ones.
  await ensureTopDir(root);
  return mkdtemp(path.join(root, `${runPrefix}${process.pid}-`));
}

/**
 * Deletes run directories off the critical path: a cargo hypothesis leaves hundreds of megabytes in
 * its upper layer, and its result should not wait for them. `settled()` waits for every deletion
 * started so far; a crash leaves them to the next start-up's sweep.
 *
 * `detached`: for a short-lived process (the CLI), each deletion is an `rm -rf` in its own session
 * that outlives it, so the process can exit as soon as it has printed its result instead of
 * waiting for the disk (measured: 0.1–0.4 s for four cargo uppers); `settled()` then waits only
 * for deletions that could not be handed off. What is left when the rm dies is swept at the next
 * start-up, as after a crash.
 */
export class BackgroundRemoval {
  readonly #pending = new Set<Promise<void>>();
  readonly #detached: boolean;

  constructor(options: { readonly detached?: boolean } = {}) {
    this.#detached = options.detached ?? false;
  }

  /**
   * Deletes `dir` once `after` has settled (a run's control group destroyed, whatever still ran
   * in it killed: nothing may still write to a directory being deleted); `settled()` waits for both.
   */
  remove(dir: string, after?: Promise<unknown>): void {
    if (after === undefined) {
      if (this.#detached) this.#handOff(dir);
      else this.#removeHere(dir);
      return;
    }
    const first: Promise<void> = after
      .catch(() => undefined) // a group left behind is swept at the next start-up
      .then(() => this.remove(dir))
      .finally(() => this.#pending.delete(first));
    this.#pending.add(first);
  }

  #removeHere(dir: string): void {
    const removal: Promise<void> = rm(dir, { recursive: true, force: true })
      .catch(() => undefined) // swept at the next start-up
      .finally(() => this.#pending.delete(removal));
    this.#pending.add(removal);
  }

  #handOff(dir: string): void {
    // rm never follows the symbolic links a run may have left in its upper layer; `--` ends options.
    const child = spawn('rm', ['-rf', '--one-file-system', '--', dir], {
      detached: true,
      stdio: 'ignore',
    });
    child.once('error', () => this.#removeHere(dir));
    child.unref();
  }

  async settled(): Promise<void> {
    // A deletion that waited for its run's group starts only then: wait for it too.
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}

export interface SweepReport {
  readonly removed: number;
  /** Workspace files an interrupted in-place run left changed and that could not be restored. */
  readonly notRestored: readonly string[];
}

/** Whether a run directory (or control group) of this name was left by a dead process. */
export function isStaleRunName(name: string): boolean {
  const match = /^run-(\d+)-/.exec(name);
  const pid = match?.[1] === undefined ? NaN : Number(match[1]);
  return !Number.isNaN(pid) && pid !== process.pid && !isProcessAlive(pid);
}

/**
 * Removes run directories whose process is gone, after `killSandboxes` has killed whatever still
 * runs in them (a removed upper layer under a live sandbox would fail it half-way, and a sandbox
 * of a dead server must not run beside the task's resumed run). An in-place run that died mid-way
 * left its journal there: its workspace is restored first.
 */
export async function sweepStaleRuns(
  root: string,
  killSandboxes: (runDirs: readonly string[]) => Promise<unknown> = () => Promise.resolve(),
): Promise<SweepReport> {
  const entries = await readdir(root).catch(() => [] as string[]);
  const stale = entries.filter(isStaleRunName).map((entry) => path.join(root, entry));
  await killSandboxes(stale);
  let removed = 0;
  const notRestored: string[] = [];
  for (const runDir of stale) {
    const journal = await readJournal(runDir);
    if (journal !== null) {
      const left = await restoreJournal(journal);
      notRestored.push(...left.map((p) => path.join(journal.workspace, p)));
    }
    await rm(runDir, { recursive: true, force: true });
    removed += 1;
  }
  return { removed, notRestored };
}

/**
 * Where scratch goes for a workspace: under the data directory, unless that lies inside the
 * workspace (an overlay's upper layer may not sit inside its lower one, and the mount would hide it).
 */
export function scratchRootFor(dataDir: string, workspace: string): string {
  const preferred = path.resolve(dataDir, 'shadows');
  const relative = path.relative(workspace, preferred);
  const inside = relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  return inside
    ? path.join(os.tmpdir(), `shadowbox-shadows-${process.getuid?.() ?? 0}`)
    : preferred;
}
