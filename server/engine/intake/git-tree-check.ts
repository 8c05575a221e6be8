import type { AppErrorCode } from '../../errors/app-error';
import { git } from '../workspace/git';
import { checkArchivePath } from './archive-policy';
import type { IntakeCaps } from './intake-caps';
import { reject } from './intake-result';
import { PathRegistry } from './path-registry';

export interface TreeSummary {
  readonly files: number;
  readonly bytes: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

// git stores names as raw bytes; one that is not UTF-8 would be checked as U+FFFD but written raw.
function decodeRecord(raw: Uint8Array): string {
  try {
    return utf8.decode(raw);
  } catch {
    throw reject('GIT_TREE_UNSAFE_PATH', 'a tree path is not valid UTF-8');
  }
}

const refuse = (code: AppErrorCode, message: string, path: string) =>
  reject(code, message, { path });

/**
 * Checks the tree of `commit` before anything is checked out, with the archive path rules: no
 * symlinks (120000), no submodules (160000), no `.git` anywhere, no traversal or collisions, and
 * the entry and size caps. `ls-tree` reads objects only; nothing in the tree runs.
 */
export async function checkGitTree(
  gitDir: string,
  commit: string,
  caps: IntakeCaps,
): Promise<TreeSummary> {
  const listing = await git({ gitDir, args: ['ls-tree', '-r', '-z', '-l', '--full-tree', commit] });
  const registry = new PathRegistry();
  let files = 0;
  let bytes = 0;
  let start = 0;
  for (let end = listing.indexOf(0); end !== -1; start = end + 1, end = listing.indexOf(0, start)) {
    const record = decodeRecord(listing.subarray(start, end));
    const tab = record.indexOf('\t');
    const [mode = '', , , size = '-'] = record.slice(0, tab).split(/ +/);
    const path = record.slice(tab + 1);
    if (mode === '120000') throw refuse('GIT_TREE_SYMLINK', 'the tree holds a symbolic link', path);
    if (mode === '160000') throw refuse('GIT_TREE_SUBMODULE', 'the tree holds a submodule', path);
    if (mode !== '100644' && mode !== '100755') {
      throw refuse('GIT_TREE_UNSAFE_PATH', `unexpected tree entry mode ${mode}`, path);
    }
    const checked = checkArchivePath(path, caps);
    if (!checked.ok) {
      throw refuse('GIT_TREE_UNSAFE_PATH', `tree path rejected: ${checked.violation.reason}`, path);
    }
    if (registry.add(checked.segments, 'file') !== null) {
      throw refuse('GIT_TREE_UNSAFE_PATH', 'tree paths collide by case or normalization', path);
    }
    files += 1;
    bytes += Number(size);
    if (files > caps.maxEntries) {
      throw refuse('GIT_TOO_LARGE', `the tree has more than ${caps.maxEntries} files`, path);
    }
    if (Number(size) > caps.maxFileBytes || bytes > caps.maxTotalBytes) {
      throw refuse('GIT_TOO_LARGE', 'the tree exceeds the size caps', path);
    }
  }
  return { files, bytes };
}
