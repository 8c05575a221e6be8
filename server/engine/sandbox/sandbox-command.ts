import { bwrapArgs, type SandboxRoot } from './sandbox-root';

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
 * The set-up half of a sandbox, run as root of new user, mount, network and PID namespaces.
 *
 * The script is fixed text; everything variable reaches it as positional arguments or in the
 * run's fstab, so no path or command is ever interpreted by a shell. It joins the run's control
 * groups (before anything forks, so every process of the run is counted), caps the size of any
 * one file it writes, mounts the overlay on the
 * workspace's own path (so warm build caches keep matching their recorded paths) and the
 * toolchain caches' overlays with one `mount --all`, applies deletions through the overlay
 * (whiteouts), then execs bubblewrap, which builds the command's minimal root and drops every
 * capability (see `bwrapArgs`). stderr is folded into stdout so the two keep their order.
 */
const script = `set -eu
fail() { echo "${setupFailedMarker}$*" >&2; exit ${setupFailedExitCode}; }
groups=$1; shift
while [ "$groups" -gt 0 ]; do
  echo 0 > "$1" || fail "cannot join the run's control group $1"
  shift; groups=$((groups - 1))
done
ulimit -f "$1" || fail "cannot cap file sizes"
fstab=$2 root=$3 upper=$4 work=$5 tmpfs=$6 deletes=$7
shift 7
if [ "$tmpfs" != 0 ]; then
  mount -t tmpfs -o "mode=0700,size=$tmpfs" shadowbox-upper "$work" || fail "cannot mount a tmpfs for the upper layer"
  mkdir "$work/upper" "$work/work"
  cp -a "$upper/." "$work/upper/" || fail "cannot stage the hypothesis on tmpfs"
fi
if [ -s "$fstab" ]; then
  mount --all --fstab "$fstab" || fail "cannot mount the sandbox's file systems on $root"
fi
if [ -s "$deletes" ]; then
  while IFS= read -r p; do rm -f -- "$root/$p" || fail "cannot delete $p"; done < "$deletes"
fi
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

// Overlay options are comma-separated and layer lists colon-separated: such paths cannot be
// expressed through mount(8), so they are refused rather than half-escaped.
const unsafeInMountOptions = /[,:\\\n]/;

export function mountablePath(dir: string): boolean {
  return !unsafeInMountOptions.test(dir);
}

// fstab fields are whitespace-separated; libmount reads octal escapes in them.
const fstabField = (value: string): string => value.replace(/ /g, '\\040').replace(/\t/g, '\\011');

/**
 * A host directory that runs need to write but must not change, such as cargo's home (its
 * package-cache lock and usage database): each run gets a private overlay of it.
 */
export interface CacheOverlay {
  readonly dir: string;
  readonly upper: string;
  readonly work: string;
}

// `userxattr`: without it, deleting a lower directory fails with EIO and renames across layers
// (cargo's incremental sessions) with EXDEV. `volatile`: the upper layer is thrown away after the
// run, so the overlay need not fsync every copied-up file nor sync at unmount (measured: cargo
// hypotheses ~20% faster on a disk upper).
const overlayLine = (target: string, upper: string, work: string, source = 'shadowbox'): string =>
  `${source} ${fstabField(target)} overlay lowerdir=${fstabField(target)},upperdir=${fstabField(upper)},workdir=${fstabField(work)},userxattr,volatile 0 0`;

/** The run's fstab (its overlays), mounted by one `mount --all` inside the namespace. */
export function sandboxFstab(layout: SandboxLayout, caches: readonly CacheOverlay[] = []): string {
  const { root } = layout;
  for (const dir of [
    root,
    ...(layout.kind === 'overlay' ? [layout.upper, layout.work] : []),
    ...caches.flatMap((c) => [c.dir, c.upper, c.work]),
  ]) {
    if (!mountablePath(dir)) {
      throw new TypeError(
        `sandboxFstab: mount paths cannot contain ',', ':', '\\' or a newline: '${dir}'`,
      );
    }
  }
  const lines: string[] = [];
  if (layout.kind === 'overlay') {
    const [upper, work] = layout.tmpfsUpper
      ? [`${layout.work}/upper`, `${layout.work}/work`]
      : [layout.upper, layout.work];
    lines.push(overlayLine(root, upper, work));
  }
  for (const cache of caches)
    lines.push(overlayLine(cache.dir, cache.upper, cache.work, 'shadowbox-cache'));
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/**
 * The namespaces of the set-up stage: its own user (mapped to root) and mounts. unshare execs the
 * script in place (no fork), so bubblewrap ends up the server's own child; the PID and network
 * namespaces are bubblewrap's (`--unshare-pid`, `--unshare-net`, which brings loopback up).
 */
export const sandboxNamespaces = ['--user', '--map-root-user', '--mount'] as const;

/** The programs a sandbox is made of, found once by the probe. */
export interface SandboxPrograms {
  readonly unshare: string;
  readonly setpriv: string;
  readonly bwrap: string;
  /** util-linux `prlimit`, for the rlimit fallback where control groups are not available. */
  readonly prlimit: string | null;
}

export interface SandboxCommandOptions {
  readonly programs: SandboxPrograms;
  /** Where the caller wrote `sandboxFstab(layout)`. */
  readonly fstabPath: string;
  /** The command's root (see `SandboxRoot`); its cwd is an absolute path inside the workspace. */
  readonly root: SandboxRoot;
  /** `cgroup.procs` files of the run's control groups. */
  readonly cgroupProcs: readonly string[];
  /** RLIMIT_FSIZE: no file the run writes can grow beyond this. */
  readonly maxFileBytes: number;
}

/**
 * unshare → sh → bubblewrap, one process (each execs the next): bubblewrap is the server's child,
 * and its `--die-with-parent` kills the sandbox when the server dies, even on `kill -9`. A
 * timeout kills bubblewrap's process group, and with it the PID namespace and everything inside.
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
  const { programs } = options;
  const overlay = layout.kind === 'overlay' ? layout : null;
  const tmpfsBytes = overlay?.tmpfsUpper === true ? options.maxFileBytes : 0;
  return {
    file: programs.unshare,
    args: [
      ...sandboxNamespaces,
      '--',
      '/bin/sh',
      '-c',
      script,
      'shadowbox-sandbox',
      String(options.cgroupProcs.length),
      ...options.cgroupProcs,
      String(Math.ceil(options.maxFileBytes / 512)),
      options.fstabPath,
      layout.root,
      overlay?.upper ?? '',
      overlay?.work ?? '',
      String(tmpfsBytes),
      overlay?.deleteList ?? '',
      programs.bwrap,
      ...bwrapArgs(options.root, argv),
    ],
  };
}
