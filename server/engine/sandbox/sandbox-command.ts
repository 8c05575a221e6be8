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
 * Runs one command inside new user, mount, network and PID namespaces.
 *
 * The shell script is fixed text; everything variable reaches it as positional arguments or in the
 * run's fstab, so no path or command is ever interpreted by a shell. Inside, the script brings
 * loopback up (each run has its own, so two runs can listen on the same port), mounts everything
 * the run needs with one `mount --all` (the overlay on the workspace's own path, so warm build
 * caches keep matching their recorded paths; a private tmpfs for HOME; a fresh sysfs that shows no
 * host cgroups; a /dev of its own), makes the host's writable mounts read-only (the namespace's
 * root is the server's user, who must not be able to write the server's files), applies deletions
 * through the overlay (whiteouts), then execs the command with stderr folded into stdout so the
 * two keep their relative order.
 */
const script = `set -eu
fail() { echo "${setupFailedMarker}$*" >&2; exit ${setupFailedExitCode}; }
root=$1 cwd=$2 fstab=$3 upper=$4 work=$5 deletes=$6 tmpfs=$7 ip=$8 readonly=$9
shift 9
"$ip" link set lo up || fail "cannot bring loopback up"
if [ "$tmpfs" = 1 ]; then
  mount -t tmpfs -o mode=0700 shadowbox-upper "$work" || fail "cannot mount a tmpfs for the upper layer"
  mkdir "$work/upper" "$work/work"
  cp -a "$upper/." "$work/upper/" || fail "cannot stage the hypothesis on tmpfs"
fi
mount --all --fstab "$fstab" || fail "cannot mount the sandbox's file systems on $root"
while [ "$readonly" -gt 0 ]; do
  mount -o remount,bind,ro "$1" || fail "cannot make $1 read-only"
  shift; readonly=$((readonly - 1))
done
if [ -s "$deletes" ]; then
  while IFS= read -r p; do rm -f -- "$root/$p" || fail "cannot delete $p"; done < "$deletes"
fi
cd "$root/$cwd" || fail "cannot enter $root/$cwd"
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
      /** An empty directory: HOME and TMPDIR, a private tmpfs inside the sandbox. */
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

export interface FstabOptions {
  /**
   * A directory prepared by `prepareDev` that becomes the run's /dev: the host's harmless devices
   * bound onto placeholders, a private devpts and /dev/shm; the host's /dev is hidden beneath.
   */
  readonly dev: { readonly dir: string; readonly devices: readonly string[] };
  readonly caches?: readonly CacheOverlay[];
}

// `userxattr`: without it, deleting a lower directory fails with EIO and renames across layers
// (cargo's incremental sessions) with EXDEV. `volatile`: the upper layer is thrown away after the
// run, so the overlay need not fsync every copied-up file nor sync at unmount (measured: cargo
// hypotheses ~20% faster on a disk upper).
const overlayLine = (target: string, upper: string, work: string, source = 'shadowbox'): string =>
  `${source} ${fstabField(target)} overlay lowerdir=${fstabField(target)},upperdir=${fstabField(upper)},workdir=${fstabField(work)},userxattr,volatile 0 0`;

/** The run's fstab, mounted by one `mount --all` inside the namespace. */
export function sandboxFstab(layout: SandboxLayout, options: FstabOptions): string {
  const { root } = layout;
  const caches = options.caches ?? [];
  for (const dir of [
    root,
    layout.home,
    ...(layout.kind === 'overlay' ? [layout.upper, layout.work] : []),
    ...caches.flatMap((c) => [c.dir, c.upper, c.work]),
    options.dev.dir,
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
  } else {
    // A mount of its own, so it stays writable when the host's file systems become read-only.
    lines.push(`${fstabField(root)} ${fstabField(root)} none bind 0 0`);
  }
  for (const cache of caches)
    lines.push(overlayLine(cache.dir, cache.upper, cache.work, 'shadowbox-cache'));
  lines.push(`shadowbox-home ${fstabField(layout.home)} tmpfs mode=0700,nosuid,nodev 0 0`);
  lines.push('shadowbox-sys /sys sysfs ro,nosuid,nodev,noexec 0 0');
  const { dir: dev, devices } = options.dev;
  for (const device of devices)
    lines.push(`/dev/${device} ${fstabField(`${dev}/${device}`)} none bind 0 0`);
  lines.push(
    `shadowbox-pts ${fstabField(`${dev}/pts`)} devpts newinstance,ptmxmode=0666,mode=0620 0 0`,
  );
  lines.push(`shadowbox-shm ${fstabField(`${dev}/shm`)} tmpfs mode=1777,nosuid,nodev 0 0`);
  lines.push(`${fstabField(dev)} /dev none rbind 0 0`);
  return `${lines.join('\n')}\n`;
}

/** The namespaces every run gets: its own user (mapped to root), mounts, network, PIDs and /proc. */
export const sandboxNamespaces = [
  '--user',
  '--map-root-user',
  '--mount',
  '--net',
  '--pid',
  '--fork',
  '--mount-proc',
] as const;

export interface SandboxCommandOptions {
  /** Workspace-relative directory to run in. */
  readonly cwd?: string;
  readonly ipPath: string;
  /** Where the caller wrote `sandboxFstab(layout)`. */
  readonly fstabPath: string;
  /** Host mount points to make read-only inside the sandbox. */
  readonly readOnlyMounts: readonly string[];
}

export function sandboxCommand(
  layout: SandboxLayout,
  argv: readonly string[],
  options: SandboxCommandOptions,
): SandboxCommand {
  const [program] = argv;
  if (program === undefined || program.length === 0) {
    throw new TypeError('sandboxCommand: the command must have a program name');
  }
  const overlay = layout.kind === 'overlay' ? layout : null;
  return {
    file: 'unshare',
    args: [
      ...sandboxNamespaces,
      '--kill-child=SIGKILL',
      '--',
      '/bin/sh',
      '-c',
      script,
      'shadowbox-sandbox',
      layout.root,
      options.cwd ?? '.',
      options.fstabPath,
      overlay?.upper ?? '',
      overlay?.work ?? '',
      overlay?.deleteList ?? '',
      overlay?.tmpfsUpper === true ? '1' : '0',
      options.ipPath,
      String(options.readOnlyMounts.length),
      ...options.readOnlyMounts,
      ...argv,
    ],
  };
}
