import { readFileSync } from 'node:fs';
import { lchown, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../errors/app-error';

/**
 * The host user and group a run's processes have. Root inside a run must not be root outside:
 * sysctl files check the caller's uid against the host's root, not its capabilities, so a run
 * mapped to host uid 0 could rewrite `kernel/core_pattern` and have the kernel run its program as
 * host root. A server started as root therefore hands each run to an identity that owns nothing
 * but the files the run must write (worktrees, upper layers); a server started as another user
 * runs them as itself (root inside maps to that user, which the kernel never treats as root).
 */
export interface SandboxIdentity {
  readonly uid: number;
  readonly gid: number;
  /** How the log and /coding name it: `shadowbox-sandbox (uid 999)`, `uid 65534`. */
  readonly label: string;
}

/** The dedicated account an operator creates (docs/security.md); `nobody` where there is none. */
export const sandboxUserName = 'shadowbox-sandbox';
const nobody = { uid: 65534, gid: 65534 };

let ownIdentity: { key: string; identity: SandboxIdentity | null } | undefined;

interface PasswdEntry {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

function readPasswd(file: string): PasswdEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').flatMap((line) => {
    const [name, , uid, gid] = line.split(':');
    if (name === undefined || uid === undefined || gid === undefined) return [];
    return /^\d+$/.test(uid) && /^\d+$/.test(gid)
      ? [{ name, uid: Number(uid), gid: Number(gid) }]
      : [];
  });
}

/**
 * The identity runs get. `SHADOWBOX_SANDBOX_USER` names it (a user name, or `uid[:gid]`);
 * otherwise the `shadowbox-sandbox` account if the machine has one, else `nobody`. Null when the
 * server is not root: its runs are already unprivileged on the host. Never uid or gid 0.
 */
export function sandboxIdentity(options?: {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly uid?: number;
  readonly passwd?: string;
}): SandboxIdentity | null {
  if (options === undefined) {
    // The server's own answer: its uid and environment do not change while it runs.
    const key = process.env.SHADOWBOX_SANDBOX_USER ?? '';
    if (ownIdentity?.key !== key) ownIdentity = { key, identity: sandboxIdentity({}) };
    return ownIdentity.identity;
  }
  const uid = options.uid ?? process.getuid?.() ?? 0;
  if (uid !== 0) return null;
  const users = readPasswd(options.passwd ?? '/etc/passwd');
  const configured = (options.env ?? process.env).SHADOWBOX_SANDBOX_USER?.trim();
  const chosen = (() => {
    if (configured === undefined || configured === '') {
      const dedicated = users.find((u) => u.name === sandboxUserName);
      if (dedicated !== undefined)
        return { ...dedicated, label: `${dedicated.name} (uid ${dedicated.uid})` };
      const name = users.find((u) => u.uid === nobody.uid)?.name ?? 'nobody';
      return { ...nobody, label: `${name} (uid ${nobody.uid})` };
    }
    const numeric = /^(\d+)(?::(\d+))?$/.exec(configured);
    if (numeric?.[1] !== undefined) {
      const id = Number(numeric[1]);
      return { uid: id, gid: Number(numeric[2] ?? id), label: `uid ${id}` };
    }
    const user = users.find((u) => u.name === configured);
    if (user === undefined) {
      throw new AppError(
        'INVALID_ARGUMENT',
        `SHADOWBOX_SANDBOX_USER: no user named '${configured}' in /etc/passwd`,
      );
    }
    return { uid: user.uid, gid: user.gid, label: `${user.name} (uid ${user.uid})` };
  })();
  if (chosen.uid === 0 || chosen.gid === 0 || chosen.uid > 0xfffffffe || chosen.gid > 0xfffffffe) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `SHADOWBOX_SANDBOX_USER: runs cannot have uid ${chosen.uid} and gid ${chosen.gid} (root, or out of range)`,
    );
  }
  return { uid: chosen.uid, gid: chosen.gid, label: chosen.label };
}

/**
 * The identity for runs in a person's own workspace (the CLI's `--workspace`), which the server
 * must not give away: its owner, when that is not root (their runs are then theirs, as if they had
 * run the tests themselves), else the server's identity. A root-owned workspace stays root's, and
 * runs can write only new files at its top and the files a hypothesis stages; `note` says so.
 */
export async function workspaceIdentity(
  workspace: string,
): Promise<{ identity: SandboxIdentity | null; note: string | null }> {
  const fallback = sandboxIdentity();
  if (fallback === null) return { identity: null, note: null };
  const owner = await lstat(workspace).catch(() => null);
  if (owner === null || owner.uid === 0 || owner.gid === 0) {
    return {
      identity: fallback,
      note:
        owner === null
          ? null
          : `the workspace is owned by root, and runs are ${fallback.label} on the host: they cannot change its existing files (chown it to a user to let runs write there)`,
    };
  }
  if (owner.uid === fallback.uid) return { identity: fallback, note: null };
  return {
    identity: {
      uid: owner.uid,
      gid: owner.gid,
      label: `the workspace's owner (uid ${String(owner.uid)})`,
    },
    note: null,
  };
}

/**
 * Gives every entry under `dir` (and `dir` itself) to `identity`, never following a link (a run
 * may have planted one pointing anywhere): the files a run writes in place must be its own, since
 * the kernel lets it write nothing else. Entries it owns already are left alone, so after the
 * first pass a walk only reads.
 */
export async function handToSandbox(dir: string, identity: SandboxIdentity | null): Promise<void> {
  if (identity === null) return;
  const visit = async (entry: string): Promise<void> => {
    const stats = await lstat(entry).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    });
    if (stats === null) return;
    if (stats.uid !== identity.uid || stats.gid !== identity.gid) {
      await lchown(entry, identity.uid, identity.gid);
    }
    if (!stats.isDirectory()) return;
    const names = await readdir(entry);
    // Bounded fan-out: a node_modules holds tens of thousands of entries.
    for (let i = 0; i < names.length; i += 64) {
      await Promise.all(names.slice(i, i + 64).map((name) => visit(path.join(entry, name))));
    }
  };
  await visit(dir);
}
