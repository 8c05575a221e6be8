import { AppError } from '../../errors/app-error';
import { git } from './git';
import { assertCommitId } from './workspace-layout';

export interface TreeFile {
  /** Repository-relative, '/'-separated. */
  readonly path: string;
  readonly size: number;
  readonly executable: boolean;
}

/** Largest file offered for editing in the browser. */
export const maxEditableBytes = 1024 * 1024;

interface TreeEntry extends TreeFile {
  readonly blob: string;
}

/**
 * The regular files of a commit (links and submodules left out: hypotheses may only write regular
 * files), read from the object store, never from the worktree a test run may have changed.
 */
async function treeEntries(gitDir: string, commit: string, path?: string): Promise<TreeEntry[]> {
  assertCommitId(commit);
  const output = await git({
    gitDir,
    env: { GIT_LITERAL_PATHSPECS: '1' },
    args: [
      'ls-tree',
      '-r',
      '-l',
      '-z',
      '--full-tree',
      commit,
      ...(path === undefined ? [] : ['--', path]),
    ],
  });
  const entries: TreeEntry[] = [];
  for (const record of output.toString('utf8').split('\0')) {
    // "<mode> SP <type> SP <object> SP+ <size> TAB <path>"
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, blob, size] = record.slice(0, tab).split(/ +/);
    if (type !== 'blob' || (mode !== '100644' && mode !== '100755') || blob === undefined) continue;
    entries.push({
      path: record.slice(tab + 1),
      size: Number(size),
      executable: mode === '100755',
      blob,
    });
  }
  return entries;
}

export async function listTreeFiles(gitDir: string, commit: string): Promise<TreeFile[]> {
  return (await treeEntries(gitDir, commit)).map(({ blob: _blob, ...file }) => file);
}

/** One file's text at a commit, for editing: refuses binary and overly large files by name. */
export async function readTreeFile(gitDir: string, commit: string, path: string): Promise<string> {
  const entry = (await treeEntries(gitDir, commit, path)).find((e) => e.path === path);
  if (entry === undefined) throw new AppError('NOT_FOUND', `no file '${path}' in the workspace`);
  if (entry.size > maxEditableBytes) {
    throw new AppError(
      'INVALID_ARGUMENT',
      `'${path}' is ${entry.size} bytes; files over ${maxEditableBytes} bytes cannot be edited here`,
    );
  }
  const bytes = await git({ gitDir, args: ['cat-file', 'blob', entry.blob] });
  if (bytes.includes(0))
    throw new AppError('INVALID_ARGUMENT', `'${path}' is a binary file and cannot be edited here`);
  return bytes.toString('utf8');
}
