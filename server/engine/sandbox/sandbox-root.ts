import path from 'node:path';

/**
 * The file system a sandboxed command sees: a new root (bubblewrap's tmpfs, pivot_root'ed into)
 * holding only what tests need, never the host's. Everything not named here is absent: the data
 * directory (database, other worktrees, source repositories, uploads, other shadows), `/root` and
 * every home, `/run` and `/var/run` (host unix sockets), the host's `/tmp`, `/sys`.
 */
export interface SandboxRoot {
  /** Host paths bound read-only at the same path: system and toolchain directories. */
  readonly readOnly: readonly string[];
  /** Links to recreate, `[link, target]` (merged-/usr systems: `/bin → usr/bin`). */
  readonly symlinks: readonly (readonly [string, string])[];
  /** Paths bound read-write at the same path: the workspace (its overlay), toolchain caches. */
  readonly writable: readonly string[];
  /** Private tmpfs mounts (HOME, `/tmp`), each at most `tmpfsBytes`. */
  readonly tmpfs: readonly string[];
  readonly tmpfsBytes: number;
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
}

const isUnder = (p: string, dir: string): boolean =>
  p === dir || p.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/**
 * bubblewrap's argv for `argv` in `root`. bwrap applies its options in order and a later mount
 * hides whatever an earlier one put below it, so mounts go shallowest first.
 *
 * - `--unshare-user --disable-userns`: bwrap enters a second, nested user namespace after its
 *   set-up (that is how it disables further ones), so every mount it made is locked: not even a
 *   root with every capability can remount them read-write or unmount them.
 * - `--cap-drop ALL`, and `setpriv` clearing the bounding, inheritable and ambient sets with
 *   `no_new_privs`: the command holds no capability at all. Either of the two would stop a
 *   remount today; together they survive a mistake in one.
 * - `--unshare-net`: a network namespace of the run's own, in which bwrap brings loopback up
 *   (two runs can both listen on 127.0.0.1:8080); nothing else is reachable.
 * - `--die-with-parent`: the command dies with the sandbox's own runner; `--new-session` keeps it
 *   off any terminal.
 */
export function bwrapArgs(root: SandboxRoot, argv: readonly string[]): string[] {
  const args = [
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
    '--dev',
    '/dev',
    '--proc',
    '/proc',
  ];
  type Mount = { readonly target: string; readonly args: readonly string[] };
  const mounts: Mount[] = [
    ...root.readOnly.map((p) => ({ target: p, args: ['--ro-bind', p, p] })),
    ...root.symlinks.map(([link, target]) => ({ target: link, args: ['--symlink', target, link] })),
    ...root.writable.map((p) => ({ target: p, args: ['--bind', p, p] })),
    ...['/tmp', ...root.tmpfs].map((p) => ({
      target: p,
      args: [
        '--perms',
        p === '/tmp' ? '1777' : '0700',
        '--size',
        String(root.tmpfsBytes),
        '--tmpfs',
        p,
      ],
    })),
    ...root.files.map(([file, target]) => ({ target, args: ['--ro-bind', file, target] })),
    ...(root.sockets ?? []).map(([socket, target]) => ({
      target,
      args: ['--bind', socket, target],
    })),
  ];
  // Stable: parents before children, and among equals the order above (ro, links, rw, tmpfs,
  // files, sockets).
  const depth = (p: string): number => p.split('/').filter(Boolean).length;
  mounts.sort((a, b) => depth(a.target) - depth(b.target));
  for (const mount of mounts) args.push(...mount.args);
  // The root bubblewrap built the mounts on: read-only, so a run writes only where it was given.
  args.push('--remount-ro', '/');
  args.push('--chdir', root.cwd, '--', ...dropCapabilities(root.setpriv), ...argv);
  return args;
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
