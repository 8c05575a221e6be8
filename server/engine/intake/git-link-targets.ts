import { git } from '../workspace/git';
import { reject } from './intake-result';
import { maxLinkTargetBytes } from './link-target';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The targets of symbolic links in a tree: the content of their blobs, read in one
 * `git cat-file --batch` (objects only, no filter, nothing runs). The caller has checked each size
 * from `ls-tree -l`; it is checked again here, so no blob read is larger than a path.
 */
export async function readLinkTargets(
  gitDir: string,
  links: readonly { readonly path: string; readonly blob: string }[],
): Promise<string[]> {
  if (links.length === 0) return [];
  const output = await git({
    gitDir,
    args: ['cat-file', '--batch'],
    input: links.map((link) => `${link.blob}\n`).join(''),
  });
  const targets: string[] = [];
  let at = 0;
  for (const { path, blob } of links) {
    const eol = output.indexOf(0x0a, at);
    const [name, type, size] = output.toString('latin1', at, eol).split(' ');
    const length = Number(size);
    if (name !== blob || type !== 'blob' || !Number.isSafeInteger(length)) {
      throw reject('GIT_TREE_SYMLINK', `link '${path}' has no readable target blob`, { path });
    }
    if (length > maxLinkTargetBytes) {
      throw reject(
        'GIT_TREE_SYMLINK',
        `link '${path}' has a target longer than ${maxLinkTargetBytes} bytes`,
        { path },
      );
    }
    try {
      targets.push(utf8.decode(output.subarray(eol + 1, eol + 1 + length)));
    } catch {
      throw reject('GIT_TREE_SYMLINK', `link '${path}' has a target that is not valid UTF-8`, {
        path,
      });
    }
    at = eol + 1 + length + 1;
  }
  return targets;
}
