import { existsSync, statSync } from 'node:fs';
import { copyFile, lchown, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RunCgroup, type CgroupSupport } from './cgroups';
import { RecentMemo } from './recent-memo';
import {
  sandboxRootPaths,
  toolchainVariables,
  type RootPaths,
  type RootPathsOptions,
} from './root-paths';
import {
  rootOverlays,
  sandboxCommand,
  type CacheOverlay,
  type SandboxCommand,
  type SandboxLayout,
  type SandboxPrograms,
} from './sandbox-command';
import { handToSandbox, type SandboxIdentity } from './sandbox-identity';
import {
  isUnder,
  rootFstab,
  rootSkeleton,
  type SandboxRoot,
  type SkeletonEntry,
} from './sandbox-root';
import type { RunLimits } from './run-limits';

/** What the probe learned about this machine, needed to build every sandboxed command. */
export interface SandboxHost {
  readonly programs: SandboxPrograms;
  /** Where runs get control groups; null: memory and process caps fall back to rlimits. */
  readonly cgroups: CgroupSupport | null;
  /** Host directories no sandbox may see, whatever a toolchain variable says (the data dir). */
  readonly hidden: readonly string[];
  /** Operator-added read-only paths (SHADOWBOX_SANDBOX_RO_PATHS). */
  readonly extraReadOnly: readonly string[];
  /** The host identity runs have (sandbox-identity.ts); null: the server's own, not root. */
  readonly identity: SandboxIdentity | null;
  /** The compiled seccomp filter (seccomp-filter.ts) every command runs under. */
  readonly seccomp: Buffer;
}

export interface PreparedSandbox extends SandboxCommand {
  /** The run's environment, with PATH cut down to what the sandbox shows. */
  readonly env: Record<string, string>;
  /** The run's control group, to watch while it runs and destroy after; null without cgroups. */
  readonly cgroup: RunCgroup | null;
  /** Upper layers of the run's cache overlays: what it writes there lands on the host's disk. */
  readonly cacheUppers: readonly string[];
}

const mib = 1024 * 1024;

/** Files of a toolchain cache that hold credentials; every run sees them empty. */
const cacheSecrets = ['credentials', 'credentials.toml'];

/**
 * Where a control group cannot cap the run, rlimits do what they can: per process (address
 * space) and per user (processes), which the probe reports as weaker than a cap on the whole run.
 */
function rlimitFallback(host: SandboxHost, cgroup: RunCgroup | null, limits: RunLimits): string[] {
  const { prlimit } = host.programs;
  if (prlimit === null) return [];
  const args: string[] = [];
  if (cgroup?.enforcesMemory !== true) args.push(`--as=${limits.maxMemoryMb * mib}`);
  if (cgroup?.enforcesPids !== true) args.push(`--nproc=${limits.maxPids}`);
  return args.length === 0 ? [] : [prlimit, ...args, '--'];
}

// Each run names only itself and loopback: the host's accounts and host names stay out of view.
// A run of a root server is its identity's uid inside too (its files' owner), named `sandbox`.
const passwd = (home: string, identity: SandboxIdentity | null): string =>
  identity === null
    ? `root:x:0:0:root:${home}:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`
    : `root:x:0:0:root:/nonexistent:/usr/sbin/nologin\nsandbox:x:${String(identity.uid)}:${String(identity.gid)}:sandbox:${home}:/bin/sh\n`;
const groupOf = (identity: SandboxIdentity | null): string =>
  identity === null
    ? 'root:x:0:\nnogroup:x:65534:\n'
    : `root:x:0:\nsandbox:x:${String(identity.gid)}:\n`;
const hosts = '127.0.0.1\tlocalhost shadowbox\n::1\tlocalhost ip6-localhost ip6-loopback\n';

/**
 * Writes the run's fstab, root skeleton, seccomp filter and private /etc files into `runDir`,
 * gives what the run writes to its identity, creates its control group and builds the command.
 * The run directory's name names the control group, so the start-up sweep finds both from one
 * name.
 */
export async function prepareSandbox(
  host: SandboxHost,
  layout: SandboxLayout,
  argv: readonly string[],
  options: {
    readonly runDir: string;
    /** Workspace-relative directory to run in. */
    readonly cwd?: string;
    readonly env: Readonly<Record<string, string>>;
    readonly limits: RunLimits;
    /** Host directories each run may write through a private overlay (see CacheOverlay). */
    readonly caches?: readonly string[];
    /** Host files bound read-only, `[host file, sandbox path]` (e.g. the egress forwarder). */
    readonly files?: readonly (readonly [string, string])[];
    /** Host unix sockets the run may connect to, `[host socket, sandbox path]` (see SandboxRoot). */
    readonly sockets?: readonly (readonly [string, string])[];
  },
): Promise<PreparedSandbox> {
  const { runDir, limits } = options;
  const extraFiles = options.files ?? [];
  const sockets = options.sockets ?? [];
  const paths = recentRootPaths({
    env: options.env,
    workspace: layout.root,
    hidden: host.hidden,
    extra: host.extraReadOnly,
  });
  for (const [, target] of [...extraFiles, ...sockets]) {
    // Bound over the workspace or HOME, a file would hide (or stand in for) the run's own; under
    // a read-only bind, the bind would hide the empty target the skeleton made for it.
    if (
      !path.isAbsolute(target) ||
      path.normalize(target) !== target ||
      [layout.root, layout.home, '/tmp', '/etc', '/proc', '/dev', ...paths.readOnly].some((dir) =>
        isUnder(target, dir),
      )
    ) {
      throw new TypeError(
        `prepareSandbox: a bound file's sandbox path must be absolute, normalized and outside the workspace, HOME, /tmp, /etc, /proc, /dev and the read-only system trees: '${target}'`,
      );
    }
  }
  // A toolchain cache inside a hidden directory (the data dir) is not a cache but the host's data.
  const hidden = (dir: string): boolean =>
    host.hidden.some((h) => isUnder(dir, h) || isUnder(h, dir));
  const caches: CacheOverlay[] = (options.caches ?? [])
    .filter((d) => !hidden(d))
    .map((dir, i) => ({
      dir,
      upper: path.join(runDir, `cache-${i}`, 'upper'),
      work: path.join(runDir, `cache-${i}`, 'work'),
    }));
  const { identity } = host;
  const etc = path.join(runDir, 'etc');
  // `empty` stands in for secrets (a bound /dev/null would not open: the root is nodev).
  const etcFiles = {
    passwd: passwd(layout.home, identity),
    group: groupOf(identity),
    hosts,
    empty: '',
  };
  const files = ['passwd', 'group', 'hosts'].map(
    (name) => [path.join(etc, name), `/etc/${name}`] as const,
  );
  const writable = layout.kind === 'direct' ? [layout.root] : [];
  const overlaid = [layout.root, ...caches.map((c) => c.dir)];
  // Registry tokens in cargo's home: never shown to a run.
  const secrets = caches.flatMap((c) =>
    cacheSecrets.map((name) => path.join(c.dir, name)).filter((file) => existsSync(file)),
  );
  const root: SandboxRoot = {
    readOnly: paths.readOnly.filter((p) => !overlaid.includes(p)),
    symlinks: [...paths.symlinks, ['/etc/mtab', '../proc/self/mounts'], ['/var/tmp', '../tmp']],
    writable,
    overlays: rootOverlays(layout, caches),
    tmpfs: [layout.home],
    tmpfsBytes: limits.maxDiskMb * mib,
    tmpfsInodes: limits.maxInodes,
    files: [
      ...files,
      ...secrets.map((file) => [path.join(etc, 'empty'), file] as const),
      ...extraFiles,
    ],
    sockets,
    cwd: path.join(layout.root, options.cwd ?? '.'),
    setpriv: host.programs.setpriv,
    owner: identity,
  };
  const rootfs = path.join(runDir, 'rootfs');
  const fstabPath = path.join(runDir, 'fstab');
  const filterPath = path.join(runDir, 'seccomp.bpf');
  const isFile = fileTest();
  const [made, ...written] = await Promise.allSettled([
    host.cgroups === null
      ? null
      : RunCgroup.create(host.cgroups, path.basename(runDir), {
          memoryBytes: limits.maxMemoryMb * mib,
          pids: limits.maxPids,
        }),
    ...caches.map((c) => prepareCacheLayers(c, identity)),
    mkdir(etc).then(() =>
      Promise.all(
        Object.entries(etcFiles).map(([name, text]) => writeFile(path.join(etc, name), text)),
      ),
    ),
    writeFile(fstabPath, rootFstab(root, rootfs, isFile)),
    writeFile(filterPath, host.seccomp),
    makeSkeleton(rootfs, rootSkeleton(root, isFile)),
    handOver(layout, identity),
    ...sockets.map(([socket]) =>
      identity === null ? null : lchown(socket, identity.uid, identity.gid),
    ),
  ]);
  // A group made while a sibling step failed would outlive the run: destroy it before failing.
  const cgroup = made.status === 'fulfilled' ? made.value : null;
  const failed = [made, ...written].find((step) => step.status === 'rejected');
  if (failed !== undefined) {
    await cgroup?.destroy();
    throw failed.reason;
  }
  const command = sandboxCommand(layout, [...rlimitFallback(host, cgroup, limits), ...argv], {
    programs: host.programs,
    fstabPath,
    rootfs,
    filterPath,
    root,
    cgroupProcs: cgroup?.procsFiles ?? [],
    maxFileBytes: limits.maxDiskMb * mib,
    identity,
  });
  return {
    ...command,
    env: { ...options.env, PATH: paths.path },
    cgroup,
    cacheUppers: caches.map((c) => c.upper),
  };
}

/**
 * How long what a run reads of the host's layout (its toolchain trees, which host paths are
 * files) is reused by the next runs: runs come in bursts of the same inputs, and a toolchain
 * installed meanwhile is seen this much later at most.
 */
const hostLayoutTtlMs = 10_000;
const rootPathsMemo = new RecentMemo<RootPaths>(hostLayoutTtlMs);
const fileMemo = new RecentMemo<boolean>(hostLayoutTtlMs, 512);

/** `sandboxRootPaths`, reused while its inputs stay the same (the run's HOME is not one of them). */
function recentRootPaths(options: RootPathsOptions): RootPaths {
  const key = JSON.stringify([
    options.env.PATH ?? null,
    toolchainVariables.map((name) => options.env[name] ?? null),
    options.workspace ?? null,
    options.hidden,
    options.extra ?? [],
  ]);
  return rootPathsMemo.get(key, () => sandboxRootPaths(options));
}

/** Whether a host path is a file (not a directory). */
function fileTest(): (hostPath: string) => boolean {
  return (hostPath) =>
    fileMemo.get(
      hostPath,
      () => statSync(hostPath, { throwIfNoEntry: false })?.isDirectory() === false,
    );
}

/**
 * The skeleton in rounds of calls made at once rather than one call after another (it is on
 * every run's critical path): the links first (with their parents), so a directory made below a
 * link (`/lib/…` on a merged-/usr system) goes where the link points, as the run will see it;
 * then the directories, then the files.
 */
async function makeSkeleton(rootfs: string, entries: readonly SkeletonEntry[]): Promise<void> {
  await mkdir(rootfs);
  const at = (entry: SkeletonEntry): string => path.join(rootfs, entry.path);
  const makeDirs = async (dirs: readonly string[]): Promise<void> => {
    const wanted = [...new Set(dirs)].filter((dir) => dir !== rootfs);
    // Only the deepest: a recursive mkdir makes the rest.
    const deepest = wanted.filter((dir) => !wanted.some((other) => other.startsWith(`${dir}/`)));
    await Promise.all(deepest.map((dir) => mkdir(dir, { recursive: true })));
  };
  const links = entries.flatMap((e) => (e.kind === 'link' ? [e] : []));
  const files = entries.filter((e) => e.kind === 'file');
  await makeDirs(links.map((e) => path.dirname(at(e))));
  await Promise.all(links.map((e) => symlink(e.target, at(e)).catch(ignoreExisting)));
  await makeDirs(
    entries.flatMap((e) =>
      e.kind === 'link' ? [] : [e.kind === 'dir' ? at(e) : path.dirname(at(e))],
    ),
  );
  await Promise.all(files.map((e) => writeFile(at(e), '', { flag: 'wx' }).catch(ignoreExisting)));
}

const ignoreExisting = (error: NodeJS.ErrnoException): void => {
  if (error.code !== 'EEXIST') throw error;
};

/**
 * What a run in place writes must be its identity's: the kernel lets it write nothing else. (A
 * hypothesis's staged upper layer is handed over by its executor, once the files are staged.)
 */
async function handOver(layout: SandboxLayout, identity: SandboxIdentity | null): Promise<void> {
  if (layout.kind === 'direct') await handToSandbox(layout.root, identity);
}

/**
 * A cache's private layers. A copied-up file keeps its lower owner, so the files a toolchain
 * rewrites at the top of its cache (cargo's package-cache lock, its usage database) are put in
 * the upper layer ahead, as the run's own.
 */
async function prepareCacheLayers(
  cache: CacheOverlay,
  identity: SandboxIdentity | null,
): Promise<void> {
  await Promise.all([
    mkdir(cache.upper, { recursive: true }),
    mkdir(cache.work, { recursive: true }),
  ]);
  if (identity === null) return;
  const entries = await readdir(cache.dir, { withFileTypes: true });
  await Promise.all(
    entries
      .filter((e) => e.isFile() && !cacheSecrets.includes(e.name))
      .map(async (e) => {
        const copy = path.join(cache.upper, e.name);
        await copyFile(path.join(cache.dir, e.name), copy);
        await lchown(copy, identity.uid, identity.gid);
      }),
  );
  await lchown(cache.upper, identity.uid, identity.gid);
}
