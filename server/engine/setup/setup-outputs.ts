import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../errors/app-error';
import { withRepoLock } from '../workspace/repo-lock';
import type { SetupPlan } from './detect-setup';

/**
 * What setup and builds write in any project, excluded whether or not detection fired (a test run
 * makes __pycache__ in a Node project too). A plain path is a directory at the workspace root; a
 * glob line matches as in .gitignore (a leading two-star segment: at any depth, a trailing slash:
 * directories only). Caches that tools drop next to the code are matched anywhere; `target` and
 * `build` only at the root, where the tools put them, since deeper directories of those names are
 * often source.
 */
export const alwaysExcludedOutputs: readonly string[] = [
  '**/node_modules/',
  '.venv',
  'target',
  'build',
  '**/__pycache__/',
  '**/.pytest_cache/',
  '**/.mypy_cache/',
  '**/.ruff_cache/',
  '**/*.egg-info/',
  '.tox',
  '.gradle',
  // Per-workspace tool caches (Go's module and build caches, …).
  '.shadowbox',
];

/** The always-excluded outputs and the plan's own, without repeats. */
export const excludePatternsFor = (plan: Pick<SetupPlan, 'outputs'>): string[] => [
  ...new Set([...alwaysExcludedOutputs, ...plan.outputs]),
];

export const excludeBlockStart = '# shadowbox: setup outputs';
export const excludeBlockEnd = '# shadowbox: end setup outputs';

const isGlob = (pattern: string): boolean => /[*?[]/.test(pattern);

/** One info/exclude line: `/dir/` for a root path, the glob itself otherwise. */
export function excludeLine(pattern: string): string {
  const segments = pattern.replace(/\/$/, '').split('/');
  // Nothing that is not a plain pattern: no negation, comment, escape, control character or `..`.
  const bad =
    pattern.length === 0 ||
    // eslint-disable-next-line no-control-regex
    /^[!#]|\\|[\u0000-\u001f\u007f]/.test(pattern) ||
    segments.some((s) => s === '..' || s === '.' || (s === '' && !isGlob(pattern)));
  if (bad || (!isGlob(pattern) && pattern.startsWith('/'))) {
    throw new AppError('INVALID_ARGUMENT', `not an output pattern: ${JSON.stringify(pattern)}`);
  }
  return isGlob(pattern) ? pattern : `/${segments.join('/')}/`;
}

/** The lines of our block in an exclude file, and the file without the block. */
function splitBlock(text: string): { ours: string[]; others: string[] } {
  const ours: string[] = [];
  const others: string[] = [];
  let inBlock = false;
  for (const line of text.split('\n')) {
    if (line === excludeBlockStart) inBlock = true;
    else if (line === excludeBlockEnd && inBlock) inBlock = false;
    else if (inBlock) ours.push(line);
    else others.push(line);
  }
  while (others.length > 0 && others[others.length - 1] === '') others.pop();
  return { ours: ours.filter((l) => l !== ''), others };
}

/**
 * Keeps setup outputs out of every change: git status, checkpoints and diffs of every worktree of
 * the source skip them, while the tree's own .gitignore is never touched (editing it would be a
 * change). Writes a marked block in the common git dir's `info/exclude`, which all worktrees of the
 * bare repository read. The block is rewritten, never appended twice, and holds the union of what
 * it held and `patterns`: tasks on different commits of one source share the file, and excluding a
 * directory that one of them does not have costs nothing. Written to a temporary file and renamed,
 * so a reader sees the old file or the new one.
 */
export async function excludeOutputs(gitDir: string, patterns: readonly string[]): Promise<void> {
  const lines = patterns.map(excludeLine);
  const file = join(gitDir, 'info', 'exclude');
  await withRepoLock(gitDir, async () => {
    await mkdir(join(gitDir, 'info'), { recursive: true });
    const text = await readFile(file, 'utf8').catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
      throw error;
    });
    const { ours, others } = splitBlock(text);
    const block = [excludeBlockStart, ...new Set([...ours, ...lines]), excludeBlockEnd];
    const next = [...others, ...(others.length > 0 ? [''] : []), ...block, ''].join('\n');
    if (next === text) return;
    const temporary = `${file}.tmp-${randomUUID()}`;
    try {
      await writeFile(temporary, next, { mode: 0o644, flag: 'wx' });
      await rename(temporary, file);
    } finally {
      await rm(temporary, { force: true });
    }
  });
}
