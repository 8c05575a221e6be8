import type { AppErrorCode } from '../../errors/app-error';
import { git } from '../workspace/git';
import { checkArchivePath } from './archive-policy';
import { readLinkTargets } from './git-link-targets';
import type { IntakeCaps } from './intake-caps';
import { reject } from './intake-result';
import { linkTargetProblem, maxLinkTargetBytes } from './link-target';
import { LinkTree } from './link-tree';
import { PathRegistry, type RegistryConflict } from './path-registry';

export interface TreeSummary {
  /** Regular files; links are not counted here (they count against the entry cap). */
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

const refuse = (code: AppErrorCode, message: string, path: string, more = {}) =>
  reject(code, message, { path, ...more });

function conflictRejection(conflict: RegistryConflict, path: string) {
  if (conflict.kind === 'inside-link') {
    return refuse('GIT_TREE_SYMLINK', `'${path}' lies inside link '${conflict.link}'`, path);
  }
  if (conflict.kind === 'link-over-directory') {
    return refuse('GIT_TREE_SYMLINK', `link '${path}' is also a directory of the tree`, path);
  }
  return refuse('GIT_TREE_UNSAFE_PATH', 'tree paths collide by case or normalization', path);
}

/**
 * Checks the tree of `commit` before anything is checked out, with the archive path rules: no
 * submodules (160000), no `.git` anywhere, no traversal or collisions, the entry and size caps,
 * and symbolic links (120000) only under the archive rule: relative, resolving inside the tree
 * through every link on the way, nothing inside a link. `ls-tree` and `cat-file` read objects
 * only; nothing in the tree runs.
 */
export async function checkGitTree(
  gitDir: string,
  commit: string,
  caps: IntakeCaps,
): Promise<TreeSummary> {
  const listing = await git({ gitDir, args: ['ls-tree', '-r', '-z', '-l', '--full-tree', commit] });
  const registry = new PathRegistry();
  const tree = new LinkTree('tree');
  const links: { path: string; segments: readonly string[]; blob: string }[] = [];
  let entries = 0;
  let files = 0;
  let bytes = 0;
  let start = 0;
  for (let end = listing.indexOf(0); end !== -1; start = end + 1, end = listing.indexOf(0, start)) {
    const record = decodeRecord(listing.subarray(start, end));
    const tab = record.indexOf('\t');
    const [mode = '', , object = '', size = '-'] = record.slice(0, tab).split(/ +/);
    const path = record.slice(tab + 1);
    if (mode === '160000') throw refuse('GIT_TREE_SUBMODULE', 'the tree holds a submodule', path);
    const isLink = mode === '120000';
    if (!isLink && mode !== '100644' && mode !== '100755') {
      throw refuse('GIT_TREE_UNSAFE_PATH', `unexpected tree entry mode ${mode}`, path);
    }
    const checked = checkArchivePath(path, caps);
    if (!checked.ok) {
      throw refuse('GIT_TREE_UNSAFE_PATH', `tree path rejected: ${checked.violation.reason}`, path);
    }
    const conflict = registry.add(checked.segments, isLink ? 'link' : 'file');
    if (conflict !== null) throw conflictRejection(conflict, path);
    entries += 1;
    if (entries > caps.maxEntries) {
      throw refuse('GIT_TOO_LARGE', `the tree has more than ${caps.maxEntries} entries`, path);
    }
    if (!isLink) {
      tree.add(checked.segments, 'file');
      files += 1;
    } else if (Number(size) > maxLinkTargetBytes) {
      const message = `link '${path}' has a target longer than ${maxLinkTargetBytes} bytes`;
      throw refuse('GIT_TREE_SYMLINK', message, path);
    } else {
      links.push({ path, segments: checked.segments, blob: object });
    }
    bytes += Number(size);
    if (Number(size) > caps.maxFileBytes || bytes > caps.maxTotalBytes) {
      throw refuse('GIT_TOO_LARGE', 'the tree exceeds the size caps', path);
    }
  }
  const targets = await readLinkTargets(gitDir, links);
  for (const [i, link] of links.entries()) {
    const target = targets[i] ?? '';
    const problem = linkTargetProblem(link.path, target);
    if (problem !== null) throw refuse('GIT_TREE_SYMLINK', problem, link.path, { target });
    tree.addLink(link.segments, target);
  }
  const refusal = tree.check();
  if (refusal !== null) {
    throw refuse('GIT_TREE_SYMLINK', refusal.message, refusal.link, refusal.details);
  }
  return { files, bytes };
}
