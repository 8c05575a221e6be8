import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../errors/app-error';
import type { Hypothesis } from './hypothesis';

// C0 controls, DEL and C1 controls: invisible in reviews and hostile to tools that split on lines.
// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The purely textual rules for a path a hypothesis may write or delete: relative, '/'-separated,
 * normalised, no '..', and nothing inside a `.git` directory (any case: case-insensitive file
 * systems would map `.GIT` onto it). Returns why the path is refused, or null.
 */
export function pathProblem(p: string): string | null {
  if (controlCharacters.test(p)) return 'contains a control character';
  if (p.includes('\\')) return 'contains a backslash';
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return 'is absolute';
  const segments = p.split('/');
  if (segments.some((s) => s === '..')) return "contains a '..' segment";
  if (segments.some((s) => s === '' || s === '.'))
    return 'is not normalised (empty or "." segment)';
  if (segments.some((s) => s.toLowerCase() === '.git')) return 'is inside .git';
  if (Buffer.byteLength(p) > 4096) return 'is longer than 4096 bytes';
  // NAME_MAX: the kernel refuses a longer one (ENAMETOOLONG), which is the caller's to fix.
  if (segments.some((s) => Buffer.byteLength(s) > 255)) {
    return 'has a segment longer than 255 bytes';
  }
  return null;
}

function refuse(hypothesis: string, p: string, why: string): AppError {
  return new AppError('INVALID_HYPOTHESIS', `hypothesis '${hypothesis}': path '${p}' ${why}`, {
    details: { hypothesis, path: p },
  });
}

/** Textual checks across one hypothesis: each path valid, none twice, none inside another. */
export function checkHypothesisPaths(h: Hypothesis): void {
  const all = [...h.edits.map((e) => e.path), ...h.delete];
  const seen = new Set<string>();
  for (const p of all) {
    const problem = pathProblem(p);
    if (problem !== null) throw refuse(h.name, p, problem);
    if (seen.has(p)) throw refuse(h.name, p, 'appears more than once');
    seen.add(p);
  }
  for (const p of all) {
    const segments = p.split('/');
    for (let i = 1; i < segments.length; i += 1) {
      const parent = segments.slice(0, i).join('/');
      if (seen.has(parent)) throw refuse(h.name, p, `is nested inside '${parent}', also changed`);
    }
  }
}

/** What a path names in a workspace, as far as a hypothesis cares. */
export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

/** A hypothesis writes (creates or replaces) a file, or deletes one. */
export type PathChange = 'write' | 'delete';

/** What each workspace-relative path names; null when nothing is there. */
export type EntryLookup = (relative: string) => Promise<EntryKind | null>;

const described: Record<Exclude<EntryKind, 'file' | 'directory'>, string> = {
  symlink: 'a symbolic link',
  other: 'not a regular file or directory',
};

/**
 * Why `p` cannot be changed in a workspace whose entries `lookup` reports: every existing parent
 * must be a real directory (a file cannot hold files; a symbolic link would redirect the write
 * outside), and an existing target a regular file (a hypothesis never replaces a directory or a
 * link); a deletion needs its file. `exists` says whether the target is there.
 */
export async function changeProblem(
  p: string,
  change: PathChange,
  lookup: EntryLookup,
): Promise<{ readonly problem: string | null; readonly exists: boolean }> {
  const segments = p.split('/');
  for (let i = 1; i <= segments.length; i += 1) {
    const prefix = segments.slice(0, i).join('/');
    const kind = await lookup(prefix);
    if (kind === null) {
      return { problem: change === 'delete' ? 'there is no such file' : null, exists: false };
    }
    if (i < segments.length) {
      if (kind === 'directory') continue;
      const what = kind === 'file' ? 'a file' : described[kind];
      return { problem: `its parent '${prefix}' is ${what}`, exists: false };
    }
    if (kind === 'file') return { problem: null, exists: true };
    const what = kind === 'directory' ? 'a directory' : described[kind];
    return { problem: `it is ${what}`, exists: true };
  }
  return { problem: null, exists: false };
}

/** `'calc.py/x' cannot be written: its parent 'calc.py' is a file` */
export const changeRefusal = (p: string, change: PathChange, problem: string): string =>
  `'${p}' cannot be ${change === 'write' ? 'written' : 'deleted'}: ${problem}`;

/** Reads a real directory with lstat: links are reported as links, never followed. */
export function workspaceEntries(workspace: string): EntryLookup {
  return async (relative) => {
    const stats = await lstat(path.join(workspace, relative)).catch((error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return null;
      throw error;
    });
    if (stats === null) return null;
    if (stats.isSymbolicLink()) return 'symlink';
    if (stats.isDirectory()) return 'directory';
    return stats.isFile() ? 'file' : 'other';
  };
}

function refuseChange(hypothesis: string, p: string, change: PathChange, problem: string) {
  return new AppError(
    'INVALID_HYPOTHESIS',
    `hypothesis '${hypothesis}': ${changeRefusal(p, change, problem)}`,
    { details: { hypothesis, path: p } },
  );
}

/**
 * Checks one change of a hypothesis against the workspace as it is (see `changeProblem`); throws
 * INVALID_HYPOTHESIS naming the hypothesis and the path. Returns whether the target exists.
 */
export async function checkAgainstWorkspace(
  workspace: string,
  hypothesis: string,
  p: string,
  change: PathChange = 'write',
): Promise<boolean> {
  const { problem, exists } = await changeProblem(p, change, workspaceEntries(workspace));
  if (problem !== null) throw refuseChange(hypothesis, p, change, problem);
  return exists;
}

/** Every write and deletion of a hypothesis against the entries `lookup` reports. */
export async function checkHypothesisAgainst(h: Hypothesis, lookup: EntryLookup): Promise<void> {
  const changes = [
    ...h.edits.map((e) => ({ p: e.path, change: 'write' as const })),
    ...h.delete.map((p) => ({ p, change: 'delete' as const })),
  ];
  for (const { p, change } of changes) {
    const { problem } = await changeProblem(p, change, lookup);
    if (problem !== null) throw refuseChange(h.name, p, change, problem);
  }
}
