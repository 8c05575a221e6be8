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

/**
 * Checks a path against the workspace as it is: every existing parent must be a real directory
 * (a symlinked parent would redirect the write outside), and an existing target a regular file.
 * Returns whether the target exists.
 */
export async function checkAgainstWorkspace(
  workspace: string,
  hypothesis: string,
  p: string,
): Promise<boolean> {
  const segments = p.split('/');
  let current = workspace;
  for (const [i, segment] of segments.entries()) {
    current = path.join(current, segment);
    const stats = await lstat(current).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    });
    if (stats === null) return false;
    const isLast = i === segments.length - 1;
    if (stats.isSymbolicLink()) {
      throw refuse(
        hypothesis,
        p,
        isLast
          ? 'is a symbolic link'
          : `has a symbolic link parent '${segments.slice(0, i + 1).join('/')}'`,
      );
    }
    if (!isLast && !stats.isDirectory()) {
      throw refuse(
        hypothesis,
        p,
        `has a parent '${segments.slice(0, i + 1).join('/')}' that is not a directory`,
      );
    }
    if (isLast && !stats.isFile()) throw refuse(hypothesis, p, 'is not a regular file');
  }
  return true;
}
