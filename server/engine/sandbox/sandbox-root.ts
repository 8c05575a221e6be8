import { existsSync } from 'node:fs';
import path from 'node:path';
import type { SandboxIdentity } from './sandbox-identity';

/**
 * The file system a sandboxed command sees: a new root holding only what tests need, never the
 * host's. Everything not named here is absent: the data directory (database, other worktrees,
 * source repositories, uploads, other shadows), `/root` and every home, `/run` and `/var/run`
 * (host unix sockets), the host's `/tmp`, `/sys`.
 *
 * The set-up stage assembles it under a directory of the run's own (`rootfs`), in a mount
 * namespace of its own, before any code of the task runs: the set-up has the server's rights, so
 * it reaches toolchains in directories the run's identity could never open (`/root/.rustup`
 * behind a 0700 `/root`) and mounts them, then hands bubblewrap the finished root as an open
 * directory. bubblewrap, as the run's unprivileged identity, adds what only the run's own
 * namespaces can provide: /proc, /dev, the seccomp filter, the locked nested user namespace.
 */
export interface SandboxRoot {
  /** Host paths bound read-only at the same path: system and toolchain directories and files. */
  readonly readOnly: readonly string[];
  /** Links to recreate, `[link, target]` (merged-/usr systems: `/bin → usr/bin`). */
  readonly symlinks: readonly (readonly [string, string])[];
  /** Paths bound read-write at the same path: a workspace run in place. */
  readonly writable: readonly string[];
  /** Overlays mounted at their lower layer's own path: a hypothesis's workspace, toolchain caches. */
  readonly overlays: readonly RootOverlay[];
  /** Private tmpfs mounts (HOME), each at most `tmpfsBytes` and `tmpfsInodes`; `/tmp` always. */
  readonly tmpfs: readonly string[];
  readonly tmpfsBytes: number;
  readonly tmpfsInodes: number;
  /** Small files written for the run and bound read-only, `[host file, sandbox path]`. */
  readonly files: readonly (readonly [string, string])[];
  /**
   * Unix sockets the run may connect to, `[host socket, sandbox path]`: the only host sockets it
   * can reach (a setup's egress proxy). Bound like a writable file: connect() needs write
   * permission on the socket, and there is nothing else to write.
   */
  readonly sockets?: readonly (readonly [string, string])[];
  /** Absolute directory to start the command in. */
  readonly cwd: string;
  /** util-linux `setpriv`, on a path the root shows (under `/usr`). */
  readonly setpriv: string;
  /** Who owns the run's HOME and /tmp: the run's identity (null: the server's own uid). */
  readonly owner: SandboxIdentity | null;
}

export interface RootOverlay {
  /** The lower layer, mounted over its own path. */
  readonly target: string;
  readonly upper: string;
  readonly work: string;
  /** The fstab source field, which names the mount in /proc/self/mounts. */
  readonly source: string;
}

/** What the set-up creates under `rootfs` before mounting: targets a mount cannot make itself. */
export type SkeletonEntry =
  | { readonly kind: 'dir'; readonly path: string }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'link'; readonly path: string; readonly target: string };

const isUnder = (p: string, dir: string): boolean =>
  p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

// Overlay options are comma-separated and layer lists colon-separated: such paths cannot be
// expressed through mount(8), so they are refused rather than half-escaped.
const unsafeInMountOptions = /[,:\\\n]/;

export function mountablePath(dir: string): boolean {
  return !unsafeInMountOptions.test(dir);
}

// fstab fields are whitespace-separated; libmount reads octal escapes in them.
const fstabField = (value: string): string => value.replace(/ /g, '\\040').replace(/\t/g, '\\011');

const depth = (p: string): number => p.split('/').filter(Boolean).length;

/**
 * Mounts made under `rootfs`, one fstab for one `mount --all`. libmount mounts them in order and a
 * later mount hides whatever an earlier one put below it, so they go shallowest first (stable:
 * among equals, read-only binds, writable binds, overlays, tmpfs, files, sockets). `nosuid` and
 * `nodev` everywhere: a setuid-root program of the host gives a run nothing (it also runs with
 * no_new_privs). `X-mount.mkdir` makes directory targets, which may lie inside an earlier mount
 * (a workspace under the run's own /tmp); file targets are in the skeleton.
 *
 * `userxattr` on overlays: without it, deleting a lower directory fails with EIO and renames
 * across layers (cargo's incremental sessions) with EXDEV. `volatile`: the upper layer is thrown
 * away after the run, so the overlay need not fsync every copied-up file nor sync at unmount
 * (measured: cargo hypotheses ~20% faster on a disk upper).
 */
export function rootFstab(
  root: SandboxRoot,
  rootfs: string,
  isFile: (hostPath: string) => boolean,
): string {
  for (const dir of [
    rootfs,
    ...root.writable,
    ...root.overlays.flatMap((o) => [o.target, o.upper, o.work]),
  ]) {
    if (!mountablePath(dir)) {
      throw new TypeError(
        `rootFstab: mount paths cannot contain ',', ':', '\\' or a newline: '${dir}'`,
      );
    }
  }
  const at = (target: string): string => fstabField(path.join(rootfs, target));
  const owner =
    root.owner === null ? '' : `,uid=${String(root.owner.uid)},gid=${String(root.owner.gid)}`;
  const limits = `size=${String(root.tmpfsBytes)},nr_inodes=${String(root.tmpfsInodes)}`;
  const bind = (source: string, target: string, options: string, file = isFile(source)): string =>
    `${fstabField(source)} ${at(target)} none bind,${options},nosuid,nodev${file ? '' : ',X-mount.mkdir'} 0 0`;
  type Line = { readonly target: string; readonly line: string };
  const lines: Line[] = [
    ...root.readOnly.map((p) => ({ target: p, line: bind(p, p, 'ro') })),
    ...root.writable.map((p) => ({ target: p, line: bind(p, p, 'rw') })),
    ...root.overlays.map((o) => ({
      target: o.target,
      line: `${o.source} ${at(o.target)} overlay lowerdir=${fstabField(o.target)},upperdir=${fstabField(o.upper)},workdir=${fstabField(o.work)},userxattr,volatile,nosuid,nodev,X-mount.mkdir 0 0`,
    })),
    ...['/tmp', ...root.tmpfs].map((p) => ({
      target: p,
      line: `shadowbox-tmp ${at(p)} tmpfs ${p === '/tmp' ? 'mode=1777' : `mode=0700${owner}`},${limits},nosuid,nodev,X-mount.mkdir 0 0`,
    })),
    ...root.files.map(([file, target]) => ({ target, line: bind(file, target, 'ro', true) })),
    ...(root.sockets ?? []).map(([socket, target]) => ({
      target,
      line: bind(socket, target, 'rw', true),
    })),
  ];
  const ordered = lines
    .map((l, i) => ({ ...l, i }))
    .sort((a, b) => depth(a.target) - depth(b.target) || a.i - b.i);
  // What bubblewrap itself needs in its parent's root: a /proc (its own replaces it, and only a
  // fully visible one may be replaced) and the device nodes its /dev binds.
  const host = [`/proc ${at('/proc')} none rbind 0 0\n`, `/dev ${at('/dev')} none bind 0 0\n`];
  // The root itself first: bound over itself it becomes a mount, which pivot_root needs (one
  // line here instead of a `mount --bind` exec of its own).
  const self = `${fstabField(rootfs)} ${fstabField(rootfs)} none bind 0 0\n`;
  return [self, ...host, ...ordered.map((l) => `${l.line}\n`)].join('');
}

/**
 * What exists under `rootfs` before the first mount: the mountpoints bubblewrap needs, the links,
 * and empty files for file binds (a directory made by `X-mount.mkdir` cannot take a file).
 */
export function rootSkeleton(
  root: SandboxRoot,
  isFile: (hostPath: string) => boolean,
): SkeletonEntry[] {
  return [
    { kind: 'dir', path: '/proc' },
    { kind: 'dir', path: '/dev' },
    ...root.symlinks.map(([link, target]) => ({ kind: 'link' as const, path: link, target })),
    ...root.readOnly.filter(isFile).map((p) => ({ kind: 'file' as const, path: p })),
    ...root.files.map(([, target]) => ({ kind: 'file' as const, path: target })),
    ...(root.sockets ?? []).map(([, target]) => ({ kind: 'file' as const, path: target })),
  ];
}

/**
 * What of /proc a run may not write or read, as container runtimes mask it (runc's
 * `readonlyPaths` and `maskedPaths`): kernel settings and triggers read-only; the kernel's
 * memory, keys, symbol addresses and timers hidden. The run is not the host's root, so the
 * kernel refuses it most of these anyway; the masks hold if that ever fails. Only entries this
 * kernel has: bubblewrap cannot create a missing one inside /proc.
 */
const procReadOnly = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'];
const procMaskedFiles = [
  '/proc/kcore',
  '/proc/keys',
  '/proc/kallsyms',
  '/proc/latency_stats',
  '/proc/timer_list',
  '/proc/timer_stats',
  '/proc/sched_debug',
];
const procMaskedDirs = ['/proc/acpi', '/proc/scsi'];

let procMasks: string[] | undefined;

/** bubblewrap's arguments for /proc's masks on this kernel (found once per process). */
export function procMaskArgs(exists: (p: string) => boolean = existsSync): string[] {
  const compute = (): string[] => [
    ...procReadOnly.filter(exists).flatMap((p) => ['--ro-bind', p, p]),
    ...procMaskedFiles.filter(exists).flatMap((p) => ['--ro-bind', '/dev/null', p]),
    ...procMaskedDirs
      .filter(exists)
      .flatMap((p) => ['--perms', '0555', '--tmpfs', p, '--remount-ro', p]),
  ];
  if (exists !== existsSync) return compute();
  procMasks ??= compute();
  return procMasks;
}

/** The descriptor the set-up stage opens the seccomp filter on, for bubblewrap. */
export const seccompFd = 4;

/**
 * bubblewrap's argv for `argv` in the assembled root (the set-up stage's `/` by then).
 *
 * - `--unshare-user --disable-userns`: bwrap enters a second, nested user namespace after its
 *   set-up (that is how it disables further ones), so every mount it made is locked: not even a
 *   root with every capability can remount them read-write or unmount them. The mounts of the
 *   set-up stage come from a more privileged namespace and are locked already.
 * - `--cap-drop ALL`, and `setpriv` clearing the bounding, inheritable and ambient sets with
 *   `no_new_privs`: the command holds no capability at all. Either of the two would stop a
 *   remount today; together they survive a mistake in one.
 * - `--seccomp`: the container runtimes' deny-list (seccomp-filter.ts), loaded last, so nothing of
 *   bubblewrap's own set-up needs what it denies.
 * - `--unshare-net`: a network namespace of the run's own, in which bwrap brings loopback up
 *   (two runs can both listen on 127.0.0.1:8080); nothing else is reachable.
 * - `--die-with-parent`: the command dies with the sandbox's own runner; `--new-session` keeps it
 *   off any terminal.
 */
export function bwrapArgs(root: SandboxRoot, argv: readonly string[]): string[] {
  return [
    '--bind',
    '/',
    '/',
    '--unshare-user',
    '--disable-userns',
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-uts',
    '--unshare-net',
    '--unshare-cgroup-try',
    '--hostname',
    'shadowbox',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--seccomp',
    String(seccompFd),
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    ...procMaskArgs(),
    // The root the set-up assembled: read-only, so a run writes only where it was given.
    '--remount-ro',
    '/',
    '--chdir',
    root.cwd,
    '--',
    ...dropCapabilities(root.setpriv),
    ...argv,
  ];
}

/** util-linux setpriv, exec'd as the sandbox's last step before the command. */
export const dropCapabilities = (setpriv: string): string[] => [
  setpriv,
  '--bounding-set=-all',
  '--inh-caps=-all',
  '--ambient-caps=-all',
  '--no-new-privs',
  '--',
];

/** Removes paths covered by another (a toolchain under `/usr` needs no bind of its own). */
export function withoutNested(paths: readonly string[]): string[] {
  const unique = [...new Set(paths.map((p) => path.resolve(p)))].sort();
  return unique.filter((p) => !unique.some((other) => other !== p && isUnder(p, other)));
}

export { isUnder };
