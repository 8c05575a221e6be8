/**
 * How imports and worktrees were made before they were packed and placed (2026-12), kept here as the
 * baseline the bench measures the engine against in the same run: every blob hashed into a loose
 * object, tree and commit written with write-tree/commit-tree; worktrees checked out with a plain
 * `git worktree add` into an ordinary directory and removed by deleting them in place.
 */
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';

const env = {
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Shadowbox Import',
  GIT_AUTHOR_EMAIL: 'import@shadowbox.invalid',
  GIT_AUTHOR_DATE: '2000-01-01T00:00:00+0000',
  GIT_COMMITTER_NAME: 'Shadowbox Import',
  GIT_COMMITTER_EMAIL: 'import@shadowbox.invalid',
  GIT_COMMITTER_DATE: '2000-01-01T00:00:00+0000',
};
const hardening = ['-c', 'core.hooksPath=/dev/null', '-c', 'gc.auto=0'];

async function git(gitDir: string, args: string[], input?: string, extra = {}): Promise<string> {
  const { stdout } = await execa('git', [...hardening, `--git-dir=${gitDir}`, ...args], {
    env: { ...env, ...extra },
    ...(input === undefined ? {} : { input }),
  });
  return stdout.trim();
}

/** The import as it was: loose objects. Returns the commit (the same id the engine's gives). */
export async function looseImport(gitDir: string, dir: string, indexFile: string): Promise<string> {
  await execa('git', ['init', '--bare', '--quiet', '--template=', gitDir]);
  const entries: { path: string; mode: string; file: string; link: boolean }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isDirectory()) continue;
    const file = join(entry.parentPath, entry.name);
    const link = entry.isSymbolicLink();
    const mode = link ? '120000' : ((await lstat(file)).mode & 0o111) !== 0 ? '100755' : '100644';
    entries.push({ path: file.slice(dir.length + 1), mode, file, link });
  }
  // Links needed their target copied into a scratch file to be hashed; the bench project has none.
  if (entries.some((e) => e.link)) throw new Error('the bench project holds no links');
  const hashes = (
    await git(
      gitDir,
      ['hash-object', '-w', '--no-filters', '--stdin-paths'],
      entries.map((e) => e.file).join('\n') + '\n',
    )
  ).split('\n');
  const info = entries.map((e, i) => `${e.mode} ${hashes[i] ?? ''}\t${e.path}\0`).join('');
  const index = { GIT_INDEX_FILE: indexFile };
  await git(gitDir, ['update-index', '-z', '--add', '--index-info'], info, index);
  const tree = await git(gitDir, ['write-tree'], undefined, index);
  const commit = await git(gitDir, ['commit-tree', tree], 'Import archive\n');
  await git(gitDir, ['update-ref', 'refs/heads/main', commit]);
  await rm(indexFile, { force: true });
  return commit;
}

export const plainWorktreeAdd = (gitDir: string, path: string, commit: string) =>
  git(gitDir, ['worktree', 'add', '--quiet', '--detach', path, commit]);

/** The removal as it was: delete in place, then drop the registration and the task ref. */
export async function plainWorktreeRemove(gitDir: string, path: string, ref: string) {
  await rm(path, { recursive: true, force: true });
  await git(gitDir, ['worktree', 'prune', '--expire=now']);
  await git(gitDir, ['update-ref', '-d', ref]);
}

export const plainUpdateRef = (gitDir: string, ref: string, commit: string) =>
  git(gitDir, ['update-ref', ref, commit]);

/** `git count-objects -v` as numbers: loose `count` and `in-pack`. */
export async function objectCounts(gitDir: string): Promise<{ loose: number; packed: number }> {
  const text = await git(gitDir, ['count-objects', '-v']);
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1]);
  return { loose: field('count'), packed: field('in-pack') };
}
