import { inspect } from 'node:util';
import { execa } from 'execa';

/** One line of `ps`: enough to find a server's descendants and what they run. */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  /** `ps` STAT, e.g. `S`, `R+`, `Z` (a zombie has exited and only waits to be reaped). */
  readonly stat: string;
  readonly args: string;
}

const psLine = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/;

/** Every process on the machine, as `ps` sees it (zombies included; see `isZombie`). */
export async function listProcesses(): Promise<ProcessInfo[]> {
  const { stdout } = await execa('ps', ['-ww', '-eo', 'pid=,ppid=,pgid=,stat=,args=']);
  return parsePs(stdout);
}

export function parsePs(output: string): ProcessInfo[] {
  const processes: ProcessInfo[] = [];
  for (const line of output.split('\n')) {
    const match = psLine.exec(line);
    if (match === null) continue;
    const [, pid, ppid, pgid, stat, args] = match;
    processes.push({
      pid: Number(pid),
      ppid: Number(ppid),
      pgid: Number(pgid),
      stat: stat ?? '',
      args: args ?? '',
    });
  }
  return processes;
}

export const isZombie = (info: ProcessInfo): boolean => info.stat.startsWith('Z');

/** `root` and everything below it (by parent pid), live processes only. */
export function processTree(processes: readonly ProcessInfo[], root: number): ProcessInfo[] {
  const children = new Map<number, ProcessInfo[]>();
  for (const info of processes) {
    const siblings = children.get(info.ppid) ?? [];
    siblings.push(info);
    children.set(info.ppid, siblings);
  }
  const tree: ProcessInfo[] = [];
  const queue = processes.filter((info) => info.pid === root);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (!isZombie(next)) tree.push(next);
    queue.push(...(children.get(next.pid) ?? []));
  }
  return tree;
}

/** Live (non-zombie) members of a process group. */
export async function processGroupMembers(pgid: number): Promise<ProcessInfo[]> {
  return (await listProcesses()).filter((info) => info.pgid === pgid && !isZombie(info));
}

/** Live processes whose command line contains `text` (e.g. a hypothesis' unique sleep marker). */
export async function processesMatching(text: string): Promise<ProcessInfo[]> {
  return (await listProcesses()).filter((info) => !isZombie(info) && info.args.includes(text));
}

/** Polls `check` until it returns a value other than `undefined`, or fails after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const cause =
        lastError === undefined
          ? ''
          : `: ${lastError instanceof Error ? lastError.message : inspect(lastError)}`;
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`, {
        cause: lastError,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
