import { existsSync, realpathSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runProcess } from '../process/run-process';
import { detectCgroups, type CgroupSupport } from './cgroups';
import { defaultRunLimits } from './run-limits';
import type { SandboxPrograms } from './sandbox-command';
import { sandboxEnv } from './sandbox-env';
import { probeCacheKey, probePassedBefore, recordProbePass } from './probe-cache';
import { prepareSandbox, type SandboxHost } from './sandbox-host';
import { handToSandbox, sandboxIdentity, type SandboxIdentity } from './sandbox-identity';
import { deniedSyscalls as deniedSyscallsOf, seccompArch, seccompProgram } from './seccomp-filter';
import { procMaskArgs } from './sandbox-root';

/** How this machine enforces one resource cap. */
export type Enforcement =
  | 'cgroup v1'
  | 'cgroup v2'
  | 'rlimit per process'
  | 'rlimit per user'
  | 'upper-layer watcher and file-size rlimit'
  | 'not enforced';

export interface SandboxCapabilities {
  readonly memory: Enforcement;
  readonly pids: Enforcement;
  readonly disk: Enforcement;
  /** The host identity runs have, e.g. `nobody (uid 65534)`: never root. */
  readonly identity: string;
  /** e.g. `seccomp filter (x64, 53 calls denied)`. */
  readonly seccomp: string;
  /** e.g. `/proc/sys read-only, 3 kernel files masked`. */
  readonly proc: string;
  /** Why a cap is weaker than a control group, in words for the log and /coding. */
  readonly notes: readonly string[];
}

export type ProbeResult =
  | ({ readonly mode: 'overlay'; readonly capabilities: SandboxCapabilities } & SandboxHost)
  | { readonly mode: 'inplace'; readonly reason: string };

const searchPath = (hostPath: string): string[] => [
  ...hostPath.split(':').filter(Boolean),
  '/usr/sbin',
  '/sbin',
  '/usr/bin',
  '/bin',
];

/** The first `name` on PATH (and the system directories), or null. */
export function findProgram(name: string, hostPath = process.env.PATH ?? ''): string | null {
  return (
    searchPath(hostPath)
      .map((dir) => path.join(dir, name))
      .find((candidate) => existsSync(candidate)) ?? null
  );
}

const requiredPrograms = {
  unshare: "util-linux's `unshare`",
  setpriv: "util-linux's `setpriv`",
  bwrap: 'bubblewrap (`bwrap`; apt-get install bubblewrap)',
  pivot_root: "util-linux's `pivot_root`",
} as const;

// Inside the lower layer: a write, a rename and the delete of a lower directory (without
// `userxattr` that fails with EIO, and cargo's renames with EXDEV); HOME writable; then what makes
// the sandbox a boundary: no capability left, mounts that cannot be remounted, nothing of the
// host beside the workspace.
// The run's own seccomp filter in force, and no kernel setting writable (a run that could write
// /proc/sys/kernel/core_pattern could make the kernel run its program as the host's root).
const check = [
  'echo changed > file && mv file renamed && rm -r dir && test ! -e dir && mkdir -p target/x',
  'touch "$HOME/home-write"',
  'grep -q "^CapEff:[[:space:]]*0*$" /proc/self/status',
  'grep -q "^Seccomp:[[:space:]]*2$" /proc/self/status',
  'test -z "$(find /proc/sys -type f -writable 2>/dev/null | head -n 1)"',
  '! mount -o remount,bind,rw / 2>/dev/null',
  // In braces: a bare `|| true` would also excuse every failed check before it.
  '{ touch ../host-write 2>/dev/null || true; }',
  'test ! -e ../canary',
  'echo ok',
].join(' && ');

class ProgramMissing extends Error {}

interface MachineProbe {
  readonly identity: SandboxIdentity | null;
  readonly seccomp: Buffer;
  readonly programs: SandboxPrograms;
  readonly cgroups: CgroupSupport | null;
  readonly capabilities: SandboxCapabilities;
}

function capabilitiesOf(
  cgroups: CgroupSupport | null,
  prlimit: string | null,
  notes: readonly string[],
  boundary: Pick<SandboxCapabilities, 'identity' | 'seccomp' | 'proc'>,
): SandboxCapabilities {
  const cgroup = cgroups === null ? null : (`cgroup v${cgroups.version}` as const);
  const memory =
    cgroups !== null && (cgroups.version === 2 || cgroups.memory !== null) ? cgroup : null;
  const pids = cgroups !== null && (cgroups.version === 2 || cgroups.pids !== null) ? cgroup : null;
  const all = [...notes];
  if (memory === null) {
    all.push(
      prlimit === null
        ? 'the memory cap is not enforced (no cgroup, no prlimit)'
        : 'the memory cap limits each process’s address space, not the whole run',
    );
  }
  // The kernel exempts uid 0 from RLIMIT_NPROC: as root, that rlimit would cap nothing.
  const nproc = prlimit !== null && process.getuid?.() !== 0;
  if (pids === null) {
    all.push(
      nproc
        ? 'the process cap counts the sandbox user’s processes, not the run’s'
        : 'the process cap is not enforced (no pids cgroup, and RLIMIT_NPROC does not bind root)',
    );
  }
  return {
    memory: memory ?? (prlimit === null ? 'not enforced' : 'rlimit per process'),
    pids: pids ?? (nproc ? 'rlimit per user' : 'not enforced'),
    disk: 'upper-layer watcher and file-size rlimit',
    ...boundary,
    notes: all,
  };
}

/**
 * Checks once that this machine can run shadows as a boundary: user namespaces, an overlay mounted
 * with `userxattr` inside them, loopback, bubblewrap's minimal root with no capabilities and
 * locked mounts. Must leave its lower layer untouched.
 */
async function probeMachine(
  scratchRoot: string,
  cacheDir: string | null,
  chosen: SandboxIdentity | null | undefined,
): Promise<MachineProbe | string> {
  const find = (name: keyof typeof requiredPrograms): string => {
    const found = findProgram(name);
    if (found === null) throw new ProgramMissing(`${requiredPrograms[name]} was not found`);
    return found;
  };
  let programs: SandboxPrograms;
  try {
    programs = {
      unshare: find('unshare'),
      setpriv: find('setpriv'),
      bwrap: find('bwrap'),
      pivotRoot: find('pivot_root'),
      prlimit: findProgram('prlimit'),
    };
  } catch (error) {
    if (error instanceof ProgramMissing) return error.message;
    throw error;
  }
  const { prlimit } = programs;
  const arch = seccompArch();
  if (arch === null) {
    return `no seccomp filter is known for this architecture (${process.arch}): runs would not be confined`;
  }
  const seccomp = seccompProgram(arch);
  let identity: SandboxIdentity | null;
  try {
    identity = chosen === undefined ? sandboxIdentity() : chosen;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  const runsAs = identity?.label ?? `uid ${String(process.getuid?.() ?? -1)} (the server's own)`;
  const boundary = {
    identity: runsAs,
    seccomp: `seccomp filter (${arch}, ${String(deniedCount(arch))} calls denied)`,
    proc: procSummary(),
  };
  const detection = await detectCgroups();
  await mkdir(scratchRoot, { recursive: true });
  const dir = await mkdtemp(path.join(scratchRoot, `run-${process.pid}-probe-`));
  try {
    const lower = path.join(dir, 'lower');
    await mkdir(path.join(lower, 'dir'), { recursive: true });
    await writeFile(path.join(lower, 'file'), 'original');
    await writeFile(path.join(lower, 'dir', 'inner'), 'inner');
    await writeFile(path.join(dir, 'canary'), 'the host');
    for (const sub of ['upper', 'work']) await mkdir(path.join(dir, sub));
    await writeFile(path.join(dir, 'deletes'), '');
    // As a worktree is: the run writes only files its identity owns.
    await Promise.all([lower, path.join(dir, 'upper')].map((d) => handToSandbox(d, identity)));
    const host: SandboxHost = {
      programs,
      cgroups: detection.support,
      hidden: [dir],
      extraReadOnly: [],
      identity,
      seccomp,
    };
    const home = path.join(dir, 'home');
    const sandbox = await prepareSandbox(
      host,
      {
        kind: 'overlay',
        root: lower,
        upper: path.join(dir, 'upper'),
        work: path.join(dir, 'work'),
        deleteList: path.join(dir, 'deletes'),
        tmpfsUpper: false,
        home,
      },
      ['/bin/sh', '-c', check],
      {
        runDir: dir,
        env: sandboxEnv({ home, tmpdir: home }),
        limits: defaultRunLimits,
      },
    );
    const passed = {
      identity,
      seccomp,
      programs,
      cgroups: detection.support,
      capabilities: capabilitiesOf(detection.support, prlimit, detection.notes, boundary),
    };
    // The same command on the same kernel and programs passed before: its answer stands.
    const anonymous = (text: string): string =>
      text.replaceAll(dir, '<probe>').replaceAll(path.basename(dir), '<probe>');
    const key = await probeCacheKey({
      programs,
      cgroups: detection.support,
      command: [
        sandbox.file,
        ...sandbox.args,
        ...Object.entries(sandbox.env).sort().flat(),
        seccomp.toString('hex'),
      ].map(anonymous),
    });
    if (cacheDir !== null && (await probePassedBefore(cacheDir, key))) {
      await sandbox.cgroup?.destroy();
      return passed;
    }
    const result = await runProcess(sandbox.file, sandbox.args, {
      cwd: dir,
      env: sandbox.env,
      timeoutMs: 10_000,
      killGraceMs: 0,
    });
    await sandbox.cgroup?.destroy();
    if (result.exitCode !== 0 || result.output.text.trim() !== 'ok') {
      const why =
        result.spawnError ??
        (result.output.text.trim().split('\n').slice(-3).join(' | ') ||
          `exit ${String(result.exitCode)}`);
      return `sandbox probe failed: ${why}`;
    }
    const untouched =
      (await readFile(path.join(lower, 'file'), 'utf8')) === 'original' &&
      (await readFile(path.join(lower, 'dir', 'inner'), 'utf8')) === 'inner' &&
      (await readdir(lower)).sort().join(',') === 'dir,file' &&
      !existsSync(path.join(dir, 'host-write'));
    if (!untouched) return 'sandbox probe wrote through to the host';
    // Seen from the host: what the run wrote is owned by its identity, never by root.
    const owner = (await lstat(path.join(dir, 'upper', 'renamed'))).uid;
    const expected = identity?.uid ?? process.getuid?.() ?? -1;
    if (owner !== expected || owner === 0) {
      return `sandbox probe: a run's files are owned by host uid ${String(owner)}, not ${runsAs}`;
    }
    if (cacheDir !== null) await recordProbePass(cacheDir, key);
    return passed;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const realOrSelf = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
};

/** One probe per identity runs may have (a CLI run in a person's workspace may be theirs). */
const cached = new Map<string, Promise<MachineProbe | string>>();

export interface ProbeOptions {
  /** Host directories no sandbox may see (the data directory). */
  readonly hidden: readonly string[];
  readonly extraReadOnly?: readonly string[];
  /**
   * Where a passed probe is remembered for later processes (see probe-cache.ts): a directory no
   * sandbox can see, the data directory. Without it every process probes again.
   */
  readonly cacheDir?: string;
  /** The identity runs get, if not the server's (see `workspaceIdentity`). */
  readonly identity?: SandboxIdentity | null;
}

/**
 * Probes the machine once per process (the answer depends on the kernel and its settings, not on
 * the call) and describes the sandbox host for these options.
 */
export async function probeSandbox(
  scratchRoot: string,
  options: ProbeOptions = { hidden: [] },
): Promise<ProbeResult> {
  const key = options.identity === undefined ? 'server' : JSON.stringify(options.identity);
  let probing = cached.get(key);
  if (probing === undefined) {
    probing = probeMachine(scratchRoot, options.cacheDir ?? null, options.identity);
    cached.set(key, probing);
  }
  const machine = await probing;
  if (typeof machine === 'string') return { mode: 'inplace', reason: machine };
  return {
    mode: 'overlay',
    identity: machine.identity,
    seccomp: machine.seccomp,
    programs: machine.programs,
    cgroups: machine.cgroups,
    capabilities: machine.capabilities,
    // Both spellings: a data directory reached through a link is hidden under its real path too.
    hidden: [...new Set(options.hidden.flatMap((p) => [path.resolve(p), realOrSelf(p)]))],
    extraReadOnly: options.extraReadOnly ?? [],
  };
}

const deniedCount = (arch: 'x64' | 'arm64'): number => deniedSyscallsOf(arch).length;

function procSummary(): string {
  const masked = procMaskArgs().filter((a) => a === '/dev/null').length;
  return `/proc/sys, /proc/irq, /proc/bus, /proc/fs read-only; ${String(masked)} kernel files masked`;
}
