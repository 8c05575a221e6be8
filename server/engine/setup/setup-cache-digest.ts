import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readdir, readlink } from 'node:fs/promises';
import { join, posix } from 'node:path';
import pLimit from 'p-limit';

/** Why a stored or staged output may not be restored: a value, the restore refuses with it. */
export type OutputCheck =
  { readonly ok: true; readonly digest: string } | { readonly ok: false; readonly reason: string };

/**
 * Whether a link at workspace-relative `at` (its directory a real directory of the worktree)
 * resolves inside the worktree, by its text alone: relative, a run of leading `..` that stays
 * inside, then names only. A `..` after a name could climb out through a link named before it
 * (`l → .` then `l/../..`), and an absolute target points at a place that differs between the
 * host and the sandbox, so both are refused. Links that pass can only lead to other links that
 * pass, or to tracked files: a restored tree never reaches outside the worktree.
 */
export function linkStaysInside(at: string, target: string): boolean {
  if (target === '' || target.startsWith('/') || target.includes('\0')) return false;
  const parts = target.split('/').filter((p) => p !== '' && p !== '.');
  const ups = parts.findIndex((p) => p !== '..');
  const climbs = ups === -1 ? parts.length : ups;
  if (parts.slice(climbs).includes('..')) return false;
  return (
    climbs <=
    posix
      .dirname(at)
      .split('/')
      .filter((p) => p !== '.').length
  );
}

/** Files up to this size are read whole (fast); larger ones are streamed (bounded memory). */
const wholeFileBytes = 64 * 1024 * 1024;

async function hashFile(path: string): Promise<string> {
  // O_NOFOLLOW: a link put in a checked file's place is refused, never read through.
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    const hash = createHash('sha256');
    if ((await handle.stat()).size <= wholeFileBytes) {
      hash.update(await handle.readFile());
    } else {
      for await (const chunk of handle.createReadStream({ autoClose: false })) {
        hash.update(chunk as Buffer);
      }
    }
    return hash.digest('hex');
  } finally {
    await handle.close();
  }
}

/**
 * The content address of an output at `dir` that will sit at workspace-relative `output`: sha256
 * of one line per entry (type, permission bits, path, and a file's sha256 or a link's target), in
 * path order, never following a link. Refuses a link that leaves the worktree (linkStaysInside)
 * and anything but directories, files and links (a FIFO would hang a reader; a device is a door
 * to the host), and setuid or setgid files. Times are left out: a copy keeps them, but they decide nothing a run sees.
 */
export async function digestOutput(dir: string, output: string): Promise<OutputCheck> {
  const lines = new Map<string, string>();
  const hashes = new Map<string, Promise<string>>();
  const limit = pLimit(8);
  // Paths visited in parallel: the refusal reported is the first in path order, every time.
  const refusals: string[] = [];
  async function visit(path: string, rel: string): Promise<void> {
    const info = await lstat(path);
    const mode = (info.mode & 0o7777).toString(8);
    if (info.isSymbolicLink()) {
      const target = await readlink(path);
      if (!linkStaysInside(rel, target)) {
        refusals.push(`${rel} links to ${JSON.stringify(target)}, outside the worktree`);
        return;
      }
      lines.set(rel, `l ${JSON.stringify(rel)} ${JSON.stringify(target)}`);
    } else if (info.isFile() && (info.mode & 0o6000) !== 0) {
      // Nothing an install needs; a root-owned setuid file restored into a worktree would be one.
      refusals.push(`${rel} is setuid or setgid`);
    } else if (info.isFile()) {
      hashes.set(
        rel,
        limit(() => hashFile(path)),
      );
      lines.set(rel, `f ${mode} ${JSON.stringify(rel)}`);
    } else if (info.isDirectory()) {
      lines.set(rel, `d ${mode} ${JSON.stringify(rel)}`);
      const names = await readdir(path);
      await Promise.all(names.map((name) => visit(join(path, name), `${rel}/${name}`)));
    } else {
      refusals.push(`${rel} is not a directory, file or link`);
    }
  }
  await visit(dir, output);
  const settled = await Promise.allSettled(hashes.values());
  const refusal = refusals.sort()[0];
  if (refusal !== undefined) return { ok: false, reason: refusal };
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  const digest = createHash('sha256');
  for (const rel of [...lines.keys()].sort()) {
    const hash = await hashes.get(rel);
    digest.update(`${lines.get(rel) ?? ''}${hash === undefined ? '' : ` ${hash}`}\n`);
  }
  return { ok: true, digest: digest.digest('hex') };
}
