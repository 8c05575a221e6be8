import { isTestPath } from '../../engine/review';
import { mineGit, mineGitText } from './mine-git';

// Which commits of a history can become eval instances, and how each splits into its test changes
// and the rest. A test file is what the review's "touches tests" flag calls one (`isTestPath`).

export interface CommitInfo {
  readonly sha: string;
  /** Its parent; null for a root commit. Merges are never listed. */
  readonly parent: string | null;
  /** Committer date, ISO 8601 as git prints it. */
  readonly date: string;
  readonly message: string;
}

/** One changed path of a commit (renames are a deletion and an addition). */
export interface ChangedFile {
  readonly path: string;
  /** A added, M modified, D deleted, T type changed. */
  readonly status: string;
  readonly oldMode: string;
  readonly newMode: string;
}

export interface CommitCandidate extends CommitInfo {
  readonly parent: string;
  readonly tests: readonly ChangedFile[];
  readonly sources: readonly ChangedFile[];
}

export type Candidacy =
  | { readonly ok: true; readonly candidate: CommitCandidate }
  | { readonly ok: false; readonly reason: string };

const fieldSep = '\u0000';
const recordSep = '\u001e';
const logFormat = '--format=%H%x00%P%x00%cI%x00%B%x1e';

/** `git log` in `logFormat`: newest first, as git gives them. */
export function parseLog(text: string): CommitInfo[] {
  const commits: CommitInfo[] = [];
  for (const record of text.split(recordSep)) {
    const trimmed = record.replace(/^\n+/, '');
    if (trimmed === '') continue;
    const [sha = '', parents = '', date = '', ...message] = trimmed.split(fieldSep);
    commits.push({
      sha,
      parent: parents.split(' ').filter((p) => p !== '')[0] ?? null,
      date,
      message: message.join(fieldSep).trim(),
    });
  }
  return commits;
}

/** `git diff --raw -z --no-renames`: `:oldmode newmode oldblob newblob status` NUL path NUL. */
export function parseRawDiff(text: string): ChangedFile[] {
  const tokens = text.split(fieldSep);
  const files: ChangedFile[] = [];
  for (let i = 0; i + 1 < tokens.length; i += 2) {
    const header = tokens[i] ?? '';
    const path = tokens[i + 1] ?? '';
    if (!header.startsWith(':')) continue;
    const [oldMode = '', newMode = '', , , status = ''] = header.slice(1).split(' ');
    files.push({ path, status: status.slice(0, 1), oldMode, newMode });
  }
  return files;
}

/** Splits a commit's changes: test files (as the review flags them) and everything else. */
export function splitChanges(
  files: readonly ChangedFile[],
  isTest: (path: string) => boolean = isTestPath,
): { readonly tests: ChangedFile[]; readonly sources: ChangedFile[] } {
  const tests: ChangedFile[] = [];
  const sources: ChangedFile[] = [];
  for (const file of files) (isTest(file.path) ? tests : sources).push(file);
  return { tests, sources };
}

// Links and submodules are not file contents a hypothesis can write.
const notAFile = (mode: string): boolean => mode === '120000' || mode === '160000';

/** Whether a commit can become an instance: a parent, test changes and other changes, files only. */
export function candidacy(commit: CommitInfo, files: readonly ChangedFile[]): Candidacy {
  if (commit.parent === null) return { ok: false, reason: 'no parent (the first commit)' };
  const odd = files.find((f) => notAFile(f.oldMode) || notAFile(f.newMode));
  if (odd !== undefined) {
    return { ok: false, reason: `changes a link or submodule (${odd.path})` };
  }
  const { tests, sources } = splitChanges(files);
  if (tests.length === 0) return { ok: false, reason: 'changes no test file' };
  if (sources.length === 0) return { ok: false, reason: 'changes only test files' };
  return { ok: true, candidate: { ...commit, parent: commit.parent, tests, sources } };
}

/** Non-merge commits reachable from HEAD, newest first; `since` as an ISO date. */
export async function listCommits(gitDir: string, since: string | null): Promise<CommitInfo[]> {
  const args = ['log', '--no-merges', '--no-color', logFormat];
  if (since !== null) args.push(`--since=${since}`);
  return parseLog(await mineGitText(gitDir, [...args, 'HEAD', '--']));
}

export async function changedFiles(
  gitDir: string,
  parent: string,
  sha: string,
): Promise<ChangedFile[]> {
  const raw = await mineGitText(gitDir, [
    'diff',
    '--raw',
    '-z',
    '--no-renames',
    '--no-ext-diff',
    '--no-textconv',
    parent,
    sha,
    '--',
  ]);
  return parseRawDiff(raw);
}

/** The commit's diff limited to `files`, as `git apply` takes it (binary-safe). */
export async function patchOf(
  gitDir: string,
  parent: string,
  sha: string,
  files: readonly ChangedFile[],
): Promise<string> {
  if (files.length === 0) return '';
  return mineGitText(gitDir, [
    'diff',
    '--no-renames',
    '--no-ext-diff',
    '--no-textconv',
    '--no-color',
    '--binary',
    '--full-index',
    parent,
    sha,
    '--',
    ...files.map((f) => f.path),
  ]);
}

/** A file's bytes at a commit. */
export const blobAt = (gitDir: string, sha: string, path: string): Promise<Buffer> =>
  mineGit(gitDir, ['cat-file', 'blob', `${sha}:${path}`]);
