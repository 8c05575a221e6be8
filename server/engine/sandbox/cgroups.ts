import { mkdir, readFile, readdir, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Resource caps through control groups. Each run gets its own group (per controller on v1) under
 * `<the server's own group>/shadowbox`, named like its run directory (`run-<pid>-…`), so the
 * start-up sweep can tell which groups a dead server left and kill what still runs in them.
 */
export type CgroupSupport =
  | {
      readonly version: 1;
      /** Parent directories for the runs' groups, per controller; null where not mounted. */
      readonly memory: string | null;
      readonly pids: string | null;
    }
  | { readonly version: 2; readonly parent: string };

export interface CgroupDetection {
  readonly support: CgroupSupport | null;
  /** Why a controller is missing, for the probe's report. */
  readonly notes: readonly string[];
}

const groupName = 'shadowbox';

interface MountInfo {
  readonly point: string;
  readonly fsType: string;
  readonly superOptions: readonly string[];
}

function parseMountinfo(text: string): MountInfo[] {
  const mounts: MountInfo[] = [];
  for (const line of text.split('\n')) {
    const [head, tail] = line.split(' - ');
    if (head === undefined || tail === undefined) continue;
    const [fsType = '', , superOptions = ''] = tail.split(' ');
    mounts.push({ point: head.split(' ')[4] ?? '', fsType, superOptions: superOptions.split(',') });
  }
  return mounts;
}

/** `/proc/self/cgroup` as controller → path (`''` for the v2 line). */
function parseOwnGroups(text: string): Map<string, string> {
  const groups = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (match === null) continue;
    for (const controller of (match[1] ?? '').split(',')) groups.set(controller, match[2] ?? '/');
  }
  return groups;
}

async function writable(dir: string): Promise<boolean> {
  try {
    await mkdir(dir, { recursive: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds where this process may create groups for its runs: a cgroup v1 `memory` and `pids`
 * hierarchy (as root), or a cgroup v2 group delegated to it with both controllers enabled for
 * its children. `root` lets tests point at a fake tree.
 */
export async function detectCgroups(
  options: { readonly procSelf?: string; readonly root?: string } = {},
): Promise<CgroupDetection> {
  const procSelf = options.procSelf ?? '/proc/self';
  const root = options.root ?? '';
  const [mountinfo, own] = await Promise.all([
    readFile(path.join(procSelf, 'mountinfo'), 'utf8').catch(() => ''),
    readFile(path.join(procSelf, 'cgroup'), 'utf8').catch(() => ''),
  ]);
  const mounts = parseMountinfo(mountinfo);
  const groups = parseOwnGroups(own);
  const notes: string[] = [];

  const v1 = async (controller: 'memory' | 'pids'): Promise<string | null> => {
    const mount = mounts.find((m) => m.fsType === 'cgroup' && m.superOptions.includes(controller));
    if (mount === undefined) return null;
    const parent = path.join(root, mount.point, groups.get(controller) ?? '/', groupName);
    if (await writable(parent)) return parent;
    notes.push(`cannot create cgroups under ${path.dirname(parent)} (${controller})`);
    return null;
  };
  const [memory, pids] = await Promise.all([v1('memory'), v1('pids')]);
  if (memory !== null || pids !== null) return { support: { version: 1, memory, pids }, notes };

  const unified = mounts.find((m) => m.fsType === 'cgroup2');
  const ownV2 = groups.get('');
  if (unified !== undefined && ownV2 !== undefined) {
    const base = path.join(root, unified.point, ownV2);
    const parent = path.join(base, groupName);
    // A child of the server's group gets what the group enabled for its children; a group with
    // processes of its own (the server's) cannot enable any (cgroup v2: no internal processes).
    const controllers = (await writable(parent))
      ? await readFile(path.join(parent, 'cgroup.controllers'), 'utf8').catch(() => '')
      : null;
    const available = (controllers ?? '').split(/\s+/);
    if (controllers === null) {
      notes.push(`cannot create cgroups under ${base} (not delegated to this user)`);
    } else if (!available.includes('memory') || !available.includes('pids')) {
      notes.push(
        `the cgroup v2 group ${base} does not enable memory and pids for its children (run the server in a leaf of a delegated group)`,
      );
    } else {
      try {
        await writeFile(path.join(parent, 'cgroup.subtree_control'), '+memory +pids');
        return { support: { version: 2, parent }, notes };
      } catch (error) {
        notes.push(`cannot enable memory and pids in ${parent}: ${(error as Error).message}`);
      }
    }
  } else if (notes.length === 0) {
    notes.push('no cgroup memory or pids controller is mounted');
  }
  return { support: null, notes };
}

export interface CgroupUsage {
  /** Processes the kernel's OOM killer killed in the group. */
  readonly oomKills: number;
  /** Forks refused because the group was at its process cap. */
  readonly pidsCapHits: number;
}

const counter = (text: string, name: string): number => {
  const match = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
  return match === null ? 0 : Number(match[1]);
};

/** One run's control group(s). */
export class RunCgroup {
  private constructor(
    private readonly support: CgroupSupport,
    /** The run's group directory per controller (v1), or its one directory (v2). */
    private readonly dirs: { readonly memory: string | null; readonly pids: string | null },
  ) {}

  /** Creates the run's group(s) with its caps, for each controller the host offers. */
  static async create(
    support: CgroupSupport,
    name: string,
    caps: { readonly memoryBytes: number; readonly pids: number },
  ): Promise<RunCgroup> {
    if (support.version === 2) {
      const dir = path.join(support.parent, name);
      await mkdir(dir);
      await writeFile(path.join(dir, 'memory.max'), String(caps.memoryBytes));
      await writeFile(path.join(dir, 'memory.swap.max'), '0').catch(() => undefined);
      await writeFile(path.join(dir, 'pids.max'), String(caps.pids));
      return new RunCgroup(support, { memory: dir, pids: dir });
    }
    const memory = support.memory === null ? null : path.join(support.memory, name);
    const pids = support.pids === null ? null : path.join(support.pids, name);
    if (memory !== null) {
      await mkdir(memory);
      await writeFile(path.join(memory, 'memory.limit_in_bytes'), String(caps.memoryBytes));
      // With swap accounting the cap covers swap too; without it the file does not exist.
      await writeFile(
        path.join(memory, 'memory.memsw.limit_in_bytes'),
        String(caps.memoryBytes),
      ).catch(() => undefined);
    }
    if (pids !== null) {
      await mkdir(pids);
      await writeFile(path.join(pids, 'pids.max'), String(caps.pids));
    }
    return new RunCgroup(support, { memory, pids });
  }

  get enforcesMemory(): boolean {
    return this.dirs.memory !== null;
  }

  get enforcesPids(): boolean {
    return this.dirs.pids !== null;
  }

  /** The `cgroup.procs` files a process writes its pid into to join the run's group(s). */
  get procsFiles(): string[] {
    const dirs = [...new Set([this.dirs.memory, this.dirs.pids])];
    return dirs.filter((d): d is string => d !== null).map((d) => path.join(d, 'cgroup.procs'));
  }

  async usage(): Promise<CgroupUsage> {
    const read = (dir: string | null, file: string): Promise<string> =>
      dir === null ? Promise.resolve('') : readFile(path.join(dir, file), 'utf8').catch(() => '');
    const v2 = this.support.version === 2;
    const [memoryEvents, pidsEvents] = await Promise.all([
      read(this.dirs.memory, v2 ? 'memory.events' : 'memory.oom_control'),
      read(this.dirs.pids, 'pids.events'),
    ]);
    return { oomKills: counter(memoryEvents, 'oom_kill'), pidsCapHits: counter(pidsEvents, 'max') };
  }

  /** Kills whatever still runs in the group, then removes it. */
  async destroy(): Promise<void> {
    const dirs = [...new Set([this.dirs.memory, this.dirs.pids])].filter(
      (d): d is string => d !== null,
    );
    await Promise.all(dirs.map((dir) => killAndRemove(dir)));
  }
}

function killPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // ESRCH: already gone.
  }
}

/** SIGKILLs every process of a group until it is empty, then removes it (≤ ~2 s). */
export async function killAndRemove(dir: string): Promise<void> {
  await writeFile(path.join(dir, 'cgroup.kill'), '1').catch(() => undefined);
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const procs = await readFile(path.join(dir, 'cgroup.procs'), 'utf8').catch(() => null);
    if (procs === null) return;
    const pids = procs.split('\n').filter(Boolean).map(Number);
    pids.forEach(killPid);
    if (pids.length === 0) {
      try {
        await rmdir(dir);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The run groups a dead server left behind, killed and removed; returns how many. */
export async function sweepRunCgroups(
  support: CgroupSupport,
  isStale: (name: string) => boolean,
): Promise<number> {
  const parents =
    support.version === 2
      ? [support.parent]
      : [support.memory, support.pids].filter((p): p is string => p !== null);
  let swept = 0;
  for (const parent of parents) {
    const entries = await readdir(parent, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || !isStale(entry.name)) continue;
      await killAndRemove(path.join(parent, entry.name));
      swept += 1;
    }
  }
  return swept;
}
