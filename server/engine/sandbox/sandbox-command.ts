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
 * Builds the argv that runs one command inside new user, mount, network and PID namespaces.
 *
 * The shell script is fixed text; everything variable reaches it as positional arguments, so no
 * path or command is ever interpreted by a shell. Inside the namespaces the script brings loopback
 * up (each run has its own, so two runs can listen on the same port), mounts the overlay on the
 * workspace's own path when asked to (warm build caches keep matching their recorded paths), applies
 * deletions through the mount (overlayfs records whiteouts), then execs the command with stderr
 * folded into stdout so the two keep their relative order.
 */
const script = `set -eu
fail() { echo "shadowbox-sandbox: setup failed: $*" >&2; exit ${setupFailedExitCode}; }
mode=$1 root=$2 cwd=$3 upper=$4 work=$5 deletes=$6 tmpfs=$7 ip=$8
shift 8
"$ip" link set lo up || fail "cannot bring loopback up"
if [ "$mode" = overlay ]; then
  if [ "$tmpfs" = 1 ]; then
    mount -t tmpfs -o mode=0700 shadowbox-upper "$work" || fail "cannot mount a tmpfs for the upper layer"
    mkdir "$work/upper" "$work/work"
    cp -a "$upper/." "$work/upper/" || fail "cannot stage the hypothesis on tmpfs"
    upper=$work/upper work=$work/work
  fi
  mount -t overlay shadowbox -o "lowerdir=$root,upperdir=$upper,workdir=$work,userxattr" "$root" ||
    fail "cannot mount the overlay on $root"
  if [ -s "$deletes" ]; then
    while IFS= read -r p; do rm -f -- "$root/$p" || fail "cannot delete $p"; done < "$deletes"
  fi
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
      /** A file listing workspace-relative paths to delete, one per line ('' for none). */
      readonly deleteList: string;
      /** Copy the staged upper into a tmpfs mounted on `work`, and run from there. */
      readonly tmpfsUpper: boolean;
    }
  | {
      /** Runs in the workspace itself, writable (e.g. to warm a build cache), still isolated. */
      readonly kind: 'direct';
      readonly root: string;
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

export function sandboxCommand(
  layout: SandboxLayout,
  argv: readonly string[],
  options: { readonly cwd?: string; readonly ipPath: string },
): SandboxCommand {
  const [program] = argv;
  if (program === undefined || program.length === 0) {
    throw new TypeError('sandboxCommand: the command must have a program name');
  }
  const overlay = layout.kind === 'overlay' ? layout : null;
  return {
    file: 'unshare',
    args: [
      '--user',
      '--map-root-user',
      '--mount',
      '--net',
      '--pid',
      '--fork',
      '--mount-proc',
      '--kill-child=SIGKILL',
      '--',
      '/bin/sh',
      '-c',
      script,
      'shadowbox-sandbox',
      layout.kind,
      layout.root,
      options.cwd ?? '.',
      overlay?.upper ?? '',
      overlay?.work ?? '',
      overlay?.deleteList ?? '',
      overlay?.tmpfsUpper === true ? '1' : '0',
      options.ipPath,
      ...argv,
    ],
  };
}
