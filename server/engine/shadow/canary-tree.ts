import { lstat, readFile, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { FileState, PreparedChange } from './hypothesis';

/**
 * The tree a run will see (the workspace with a hypothesis's changes over it), read by the
 * server to place canaries. The workspace is the task's code: a link in it could point anywhere
 * on the host, so only real files and directories inside it are read, never through a link.
 */
export interface RunTree {
  /** Text of a regular file, or null when it is absent, deleted, a link or too large. */
  file(relative: string): Promise<string | null>;
  /** The file as a change would find it (for a canary appended to it). */
  state(relative: string): Promise<FileState>;
  isDir(relative: string): Promise<boolean>;
  /** Names in a directory (dirs first marked with a trailing '/'), or [] when it is not one. */
  list(relative: string): Promise<string[]>;
}

const maxReadBytes = 1024 * 1024;

export function runTree(workspace: string, changes: readonly PreparedChange[]): RunTree {
  const changed = new Map(changes.map((c) => [c.path, c.after]));
  const before = new Map(changes.map((c) => [c.path, c.before]));
  const rootReal = realpath(workspace).catch(() => null);
  /** The absolute path of `relative` when nothing on the way is a link, else null. */
  const real = async (relative: string): Promise<string | null> => {
    const root = await rootReal;
    if (root === null) return null;
    const normal = path.posix.normalize(relative).replace(/(?<=.)\/+$/, '');
    if (normal.startsWith('..') || path.posix.isAbsolute(normal)) return null;
    const target = normal === '.' ? root : path.join(root, normal);
    const resolved = await realpath(target).catch(() => null);
    return resolved === target ? target : null;
  };
  return {
    async file(relative) {
      const normal = path.posix.normalize(relative);
      if (changed.has(normal)) {
        const after = changed.get(normal);
        return after === null || after === undefined ? null : after.toString('utf8');
      }
      const target = await real(normal);
      if (target === null) return null;
      const stats = await lstat(target).catch(() => null);
      if (stats?.isFile() !== true || stats.size > maxReadBytes) return null;
      return readFile(target, 'utf8').catch(() => null);
    },
    async state(relative) {
      const normal = path.posix.normalize(relative);
      const known = before.get(normal);
      if (known !== undefined) return known;
      const target = await real(normal);
      const stats = target === null ? null : await lstat(target).catch(() => null);
      if (target === null || stats?.isFile() !== true) return { exists: false };
      return { exists: true, content: await readFile(target), mode: stats.mode & 0o7777 };
    },
    async isDir(relative) {
      const target = await real(relative);
      return target !== null && (await lstat(target).catch(() => null))?.isDirectory() === true;
    },
    async list(relative) {
      const target = await real(relative);
      if (target === null) return [];
      const entries = await readdir(target, { withFileTypes: true }).catch(() => []);
      const normal = path.posix.normalize(relative).replace(/(?<=.)\/+$/, '');
      const names = entries
        .filter((e) => e.isFile() || e.isDirectory())
        .map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
      // Files a hypothesis adds in this directory are part of the run's tree too.
      for (const [p, after] of changed) {
        if (after !== null && path.posix.dirname(p) === normal) names.push(path.posix.basename(p));
      }
      return [...new Set(names)].sort();
    },
  };
}
