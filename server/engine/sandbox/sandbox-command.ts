import { bwrapArgs, type RootOverlay, type SandboxRoot } from './sandbox-root';
import type { SandboxIdentity } from './sandbox-identity';

/** The exit code of a sandbox whose set-up failed; its output then holds one `setup failed` line. */
export const setupFailedExitCode = 125;
const setupFailedMarker = 'shadowbox-sandbox: setup failed: ';

/** The set-up failure a sandbox reported, if any (else the command itself ran). */
export function sandboxSetupFailure(exitCode: number | null, output: string): string | null {
  if (exitCode !== setupFailedExitCode) return null;
  const line = output.split('\n').find((l) => l.startsWith(setupFailedMarker));
  return line === undefined ? null : line.slice(setupFailedMarker.length);
}

/**
 * The set-up stage of a sandbox, in a mount namespace of its own (see `sandboxNamespaces`).
 *
 * The script is fixed text; everything variable reaches it as positional arguments or in the
 * run's fstab, so no path or command is ever interpreted by a shell. It joins the run's control
 * groups, caps the size of any one file it writes, assembles the run's root under `rootfs` with
 * one `mount --all` (the root's own bind first, then system and toolchain binds, the overlay on
 * the workspace's own path, so warm build caches keep matching their recorded paths, the caches'
 * overlays, the private tmpfs), opens the
 * seccomp filter for bubblewrap, makes the assembled tree its root (pivot_root, then the host's
 * root detached: nothing of it is reachable any more), applies deletions through the overlay
 * (whiteouts; only now, so a link the workspace holds resolves inside the run's root), then execs
 * bubblewrap (as the run's identity, through setpriv, when the server is root), which binds that
 * root whole. bubblewrap resolves its sources by path, as the identity: it could not reach a
 * directory under the data directory or /root, but every path of the new root is its own. stderr
 * is folded into stdout so the two keep their order.
 *
 * The join is made by a background subshell writing the stage's own pid (`$$`) while the stage
 * mounts, and waited for before bubblewrap is exec'd: nothing of the run exists before then
 * (every process of it descends from bubblewrap), so every one is counted. On cgroup v1 a
 * migration after an idle spell waits for an RCU grace period (measured 8–25 ms here, almost no
 * CPU), which the mounts now overlap instead of waiting behind it. The group files are opened
 * before (pivot_root moves the subshell's root too, which has no /sys) and closed before the
 * exec: the run never holds them.
 */
const script = `set -eu
fail() { echo "${setupFailedMarker}$*" >&2; exit ${setupFailedExitCode}; }
groups=$1 group1=\${2-} group2=\${3-}; shift $((groups + 1))
if [ "$groups" -gt 0 ]; then exec 6> "$group1" || fail "cannot open the run's control group $group1"; fi
if [ "$groups" -gt 1 ]; then exec 7> "$group2" || fail "cannot open the run's control group $group2"; fi
(
  if [ "$groups" -gt 0 ]; then echo "$$" >&6 || fail "cannot join the run's control group $group1"; fi
  if [ "$groups" -gt 1 ]; then echo "$$" >&7 || fail "cannot join the run's control group $group2"; fi
) &
joining=$!
ulimit -f "$1" || fail "cannot cap file sizes"
fstab=$2 rootfs=$3 filter=$4 root=$5 upper=$6 work=$7 tmpfs=$8 deletes=$9 pivot=\${10}
shift 10
if [ "$tmpfs" != 0 ]; then
  mount -t tmpfs -o "mode=0700,size=$tmpfs" shadowbox-upper "$work" || fail "cannot mount a tmpfs for the upper layer"
  cp -a "$upper" "$work/upper" || fail "cannot stage the hypothesis on tmpfs"
  mkdir "$work/work"
fi
mount --all --fstab "$fstab" || fail "cannot mount the sandbox's file systems under $rootfs"
exec 4< "$filter" 5< "$deletes" || fail "cannot open the sandbox's seccomp filter"
cd "$rootfs"
"$pivot" . . || fail "cannot enter the sandbox's root"
umount -l . || fail "cannot detach the host's root"
cd /
while IFS= read -r p <&5; do rm -f -- "$root/$p" || fail "cannot delete $p"; done
exec 5<&-
wait "$joining" || exit ${setupFailedExitCode}
exec 6>&- 7>&-
exec "$@" 2>&1
`;

export type SandboxLayout =
  | {
      readonly kind: 'overlay';
      /** The workspace: the overlay's lower layer, mounted over itself. */
      readonly root: string;
      /** Holds the hypothesis's files before the mount; receives every write after it. */
      readonly upper: string;
      readonly work: string;
      /** A file listing workspace-relative paths to delete, one per line; empty for none. */
      readonly deleteList: string;
      /** Copy the staged upper into a tmpfs mounted on `work`, and run from there. */
      readonly tmpfsUpper: boolean;
      /** HOME and TMPDIR: a private tmpfs inside the sandbox, at this path. */
      readonly home: string;
    }
  | {
      /** Runs in the workspace itself, writable (e.g. to warm a build cache), still isolated. */
      readonly kind: 'direct';
      readonly root: string;
      readonly home: string;
    };

export interface SandboxCommand {
  readonly file: string;
  readonly args: readonly string[];
}

/**
 * A host directory that runs need to write but must not change, such as cargo's home (its
 * package-cache lock and usage database): each run gets a private overlay of it.
 */
export interface CacheOverlay {
  readonly dir: string;
  readonly upper: string;
  readonly work: string;
}

/** The overlays of a run's root: the hypothesis's workspace (if any), then the caches. */
export function rootOverlays(
  layout: SandboxLayout,
  caches: readonly CacheOverlay[] = [],
): RootOverlay[] {
  const overlays: RootOverlay[] = [];
  if (layout.kind === 'overlay') {
    const [upper, work] = layout.tmpfsUpper
      ? [`${layout.work}/upper`, `${layout.work}/work`]
      : [layout.upper, layout.work];
    overlays.push({ target: layout.root, upper, work, source: 'shadowbox' });
  }
  for (const cache of caches) {
    overlays.push({
      target: cache.dir,
      upper: cache.upper,
      work: cache.work,
      source: 'shadowbox-cache',
    });
  }
  return overlays;
}

/**
 * The namespaces of the set-up stage. A root server makes only a mount namespace: the set-up
 * assembles the run's root with the server's rights (it must read toolchains the run's identity
 * cannot reach) and never runs task code. Any other user makes a user namespace mapped to
 * itself as well, to be allowed to mount. unshare execs the script in place (no fork), so
 * bubblewrap ends up the server's own child; the PID and network namespaces are bubblewrap's
 * (`--unshare-pid`, `--unshare-net`, which brings loopback up).
 */
export const sandboxNamespaces = (asRoot: boolean): readonly string[] =>
  asRoot
    ? ['--mount', '--propagation', 'private']
    : ['--user', '--map-root-user', '--mount', '--propagation', 'private'];

/** The programs a sandbox is made of, found once by the probe. */
export interface SandboxPrograms {
  readonly unshare: string;
  readonly setpriv: string;
  readonly bwrap: string;
  /** util-linux `pivot_root`: the set-up stage enters the root it assembled. */
  readonly pivotRoot: string;
  /** util-linux `prlimit`, for the rlimit fallback where control groups are not available. */
  readonly prlimit: string | null;
}

export interface SandboxCommandOptions {
  readonly programs: SandboxPrograms;
  /** Where the caller wrote `rootFstab(root)`. */
  readonly fstabPath: string;
  /** The directory the root is assembled under (see `rootSkeleton`). */
  readonly rootfs: string;
  /** The seccomp program (seccomp-filter.ts), as a file. */
  readonly filterPath: string;
  /** The command's root (see `SandboxRoot`); its cwd is an absolute path inside the workspace. */
  readonly root: SandboxRoot;
  /** `cgroup.procs` files of the run's control groups. */
  readonly cgroupProcs: readonly string[];
  /** RLIMIT_FSIZE: no file the run writes can grow beyond this. */
  readonly maxFileBytes: number;
  /** The host identity bubblewrap and the command run as; null: the server's own. */
  readonly identity: SandboxIdentity | null;
}

/**
 * unshare → sh → [setpriv →] bubblewrap, one process (each execs the next): bubblewrap is the
 * server's child, and its `--die-with-parent` kills the sandbox when the server dies, even on
 * `kill -9`. A timeout kills bubblewrap's process group, and with it the PID namespace and
 * everything inside.
 */
export function sandboxCommand(
  layout: SandboxLayout,
  argv: readonly string[],
  options: SandboxCommandOptions,
): SandboxCommand {
  const [program] = argv;
  if (program === undefined || program.length === 0) {
    throw new TypeError('sandboxCommand: the command must have a program name');
  }
  const { programs, identity } = options;
  if (options.cgroupProcs.length > 2) {
    throw new TypeError('sandboxCommand: a run joins at most two control groups (memory, pids)');
  }
  const overlay = layout.kind === 'overlay' ? layout : null;
  const tmpfsBytes = overlay?.tmpfsUpper === true ? options.maxFileBytes : 0;
  // setresuid clears every capability: bubblewrap starts as the identity, unprivileged, with
  // only the descriptors the set-up opened for it.
  const asIdentity =
    identity === null
      ? []
      : [
          programs.setpriv,
          `--reuid=${String(identity.uid)}`,
          `--regid=${String(identity.gid)}`,
          '--clear-groups',
          '--',
        ];
  return {
    file: programs.unshare,
    args: [
      ...sandboxNamespaces(identity !== null),
      '--',
      '/bin/sh',
      '-c',
      script,
      'shadowbox-sandbox',
      String(options.cgroupProcs.length),
      ...options.cgroupProcs,
      String(Math.ceil(options.maxFileBytes / 512)),
      options.fstabPath,
      options.rootfs,
      options.filterPath,
      layout.root,
      overlay?.upper ?? '',
      overlay?.work ?? '',
      String(tmpfsBytes),
      overlay === null || overlay.deleteList === '' ? '/dev/null' : overlay.deleteList,
      programs.pivotRoot,
      ...asIdentity,
      programs.bwrap,
      ...bwrapArgs(options.root, argv),
    ],
  };
}
