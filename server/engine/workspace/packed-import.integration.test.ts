import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneStaleWorktrees } from './prune-worktrees';
import { importDirectory, initBare, type SourceRepo } from './source-repo';
import { TaskWorktree } from './task-worktree';
import { workspaceLayout, type WorkspaceLayout } from './workspace-layout';
import { trashEmptied } from './worktree-trash';

const plainGit = (gitDir: string, args: string[], input?: string, env = {}) =>
  execa('git', [`--git-dir=${gitDir}`, ...args], {
    env: { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...env },
    ...(input === undefined ? {} : { input }),
  }).then((result) => result.stdout.trim());

/** Loose and packed object counts (`git count-objects -v`). */
async function objectCounts(gitDir: string): Promise<{ loose: number; packed: number }> {
  const text = await plainGit(gitDir, ['count-objects', '-v']);
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1]);
  return { loose: field('count'), packed: field('in-pack') };
}

// Names fast-import would misread unquoted: a leading quote, a line feed, a backslash.
const oddNames = ['"quoted', 'line\nfeed.txt', 'back\\slash', 'with space.txt', 'ünïcode.md'];

describe('imports write one pack; worktrees are removed through the trash', () => {
  let root: string;
  let layout: WorkspaceLayout;
  let tree: string;
  let source: SourceRepo;
  let commit: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sb-pack-'));
    layout = workspaceLayout(join(root, 'data'));
    tree = join(root, 'tree');
    await mkdir(join(tree, 'src', 'deep'), { recursive: true });
    await writeFile(join(tree, 'src', 'lib.js'), 'export const a = 1;\n');
    await writeFile(join(tree, 'src', 'deep', 'empty.txt'), '');
    await writeFile(join(tree, 'run.sh'), '#!/bin/sh\necho hi\n');
    await chmod(join(tree, 'run.sh'), 0o755);
    await symlink('src/lib.js', join(tree, 'lib-link.js'));
    for (const name of oddNames) await writeFile(join(tree, name), `${name}\n`);
    source = { id: 'packed', gitDir: join(layout.sourcesDir, 'packed.git') };
    await mkdir(layout.sourcesDir, { recursive: true });
    await initBare(source.gitDir);
    commit = await importDirectory(source.gitDir, tree);
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('leaves no loose object, even for an import of fewer than 100 objects', async () => {
    const counts = await objectCounts(source.gitDir);
    expect(counts.loose).toBe(0);
    // 9 blobs, 3 trees, 1 commit: below the count under which fast-import would unpack them.
    expect(counts.packed).toBe(13);
  });

  it('makes the commit hash-object + update-index + commit-tree made, byte for byte', async () => {
    const scratch = join(root, 'reference.git');
    await initBare(scratch);
    const files = [
      ['100644', 'src/lib.js'],
      ['100644', 'src/deep/empty.txt'],
      ['100755', 'run.sh'],
      ...oddNames.map((name) => ['100644', name]),
    ] as const;
    const entries: string[] = [];
    for (const [mode, path] of files) {
      const blob = await plainGit(scratch, ['hash-object', '-w', '--no-filters', join(tree, path)]);
      entries.push(`${mode} ${blob}\t${path}\0`);
    }
    const link = await plainGit(scratch, ['hash-object', '-w', '--stdin'], 'src/lib.js');
    entries.push(`120000 ${link}\tlib-link.js\0`);
    const index = { GIT_INDEX_FILE: join(root, 'reference.index') };
    await plainGit(
      scratch,
      ['update-index', '-z', '--add', '--index-info'],
      entries.join(''),
      index,
    );
    const referenceTree = await plainGit(scratch, ['write-tree'], undefined, index);
    const identity = {
      GIT_AUTHOR_NAME: 'Shadowbox Import',
      GIT_AUTHOR_EMAIL: 'import@shadowbox.invalid',
      GIT_AUTHOR_DATE: '2000-01-01T00:00:00+0000',
      GIT_COMMITTER_NAME: 'Shadowbox Import',
      GIT_COMMITTER_EMAIL: 'import@shadowbox.invalid',
      GIT_COMMITTER_DATE: '2000-01-01T00:00:00+0000',
    };
    const reference = await plainGit(
      scratch,
      ['commit-tree', referenceTree],
      'Import archive\n',
      identity,
    );
    expect(commit).toBe(reference);
    expect(await plainGit(source.gitDir, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/main');
  });

  it('imports an empty directory as a commit of the empty tree', async () => {
    const empty = join(root, 'empty');
    await mkdir(empty);
    const gitDir = join(root, 'empty.git');
    await initBare(gitDir);
    const sha = await importDirectory(gitDir, empty);
    expect(await plainGit(gitDir, ['rev-parse', `${sha}^{tree}`])).toBe(
      '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
    );
  });

  it('frees the path at once and deletes the checkout in the background', async () => {
    const task = await TaskWorktree.create({ layout, source, taskId: 'gone', commit });
    await writeFile(join(task.path, 'build-output.o'), 'left by a build');
    await task.remove();
    expect(existsSync(task.path)).toBe(false);
    expect(await plainGit(source.gitDir, ['worktree', 'list', '--porcelain'])).not.toContain(
      task.path,
    );
    expect(await plainGit(source.gitDir, ['for-each-ref', 'refs/shadowbox/tasks/'])).toBe('');
    await trashEmptied();
    expect(await readdir(layout.trashDir)).toEqual([]);
    // The commits stay: a new worktree of the same task id can be made at once.
    const again = await TaskWorktree.create({ layout, source, taskId: 'gone', commit });
    expect(await again.head()).toBe(commit);
    await again.remove();
    await trashEmptied();
  });

  it('empties the trash a crashed process left, at start-up', async () => {
    const left = join(layout.trashDir, 'crashed-task-0b2c', 'node_modules', 'pkg');
    await mkdir(left, { recursive: true });
    await writeFile(join(left, 'index.js'), 'module.exports = 1;\n');
    await pruneStaleWorktrees(layout, new Set());
    expect(await readdir(layout.trashDir)).toEqual([]);
  });

  it('marks the worktrees folder as a top of directory hierarchies where the file system can', async () => {
    const listed = await execa('lsattr', ['-d', layout.worktreesDir], { reject: false });
    // Only ext2/3/4 know the flag; elsewhere lsattr refuses and there is nothing to check.
    if (listed.exitCode === 0) expect(listed.stdout.split(/\s/)[0]).toContain('T');
  });
});
