import { runGit } from '../workspace/git';
import { reject } from './intake-result';

// A conservative subset of git's ref-name rules: enough for branches, tags and hex commit ids,
// and nothing that git could read as an option or a revision expression.
const refName = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,254}$/;
const commitId = /^[0-9a-f]{7,64}$/;

export function assertRefName(ref: string): void {
  if (!refName.test(ref) || ref.includes('..') || ref.endsWith('.lock') || ref.endsWith('/')) {
    throw reject('INVALID_ARGUMENT', 'ref must be a branch, tag or commit id', { ref });
  }
}

async function peel(gitDir: string, revision: string): Promise<string | null> {
  const output = await runGit({
    gitDir,
    args: ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`],
  });
  return output.exitCode === 0 ? output.stdout.toString('utf8').trim() : null;
}

/** Resolves a branch, then a tag, then a commit id (or HEAD when no ref is given) to a commit. */
export async function resolveRef(gitDir: string, ref: string | undefined): Promise<string> {
  if (ref === undefined) {
    const head = await peel(gitDir, 'HEAD');
    if (head === null) throw reject('GIT_REF_NOT_FOUND', 'the repository has no default branch');
    return head;
  }
  assertRefName(ref);
  const candidates = [`refs/heads/${ref}`, `refs/tags/${ref}`];
  if (commitId.test(ref)) candidates.push(ref);
  for (const candidate of candidates) {
    const commit = await peel(gitDir, candidate);
    if (commit !== null) return commit;
  }
  throw reject('GIT_REF_NOT_FOUND', `no branch, tag or commit named ${ref}`, { ref });
}
