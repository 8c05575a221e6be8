import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSourceFromArchive, createSourceFromGit } from '../workspace/create-source';
import { TaskWorktree } from '../workspace/task-worktree';
import { workspaceLayout, type WorkspaceLayout } from '../workspace/workspace-layout';
import { GitUrlPolicy } from './git-url-policy';
import { makeCraftedRepo, testGit, writeTree } from '../../test-support/git-fixtures';
import { startGitHttpServer, type LoopbackServer } from '../../test-support/git-http-server';
import { buildZip } from '../../test-support/zip-builder';

// Links of an accepted archive or clone end up in the source repository as links (120000), and in
// task worktrees as links, never as copies of what they point at.
describe('relative in-tree links in sources and task worktrees', () => {
  let root: string;
  let layout: WorkspaceLayout;
  let server: LoopbackServer;
  const policy = new GitUrlPolicy({
    resolver: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
    testOnlyAllowLoopback: true,
  });
  const link = (name: string, target: string) => ({ name, data: target, unixMode: 0o120777 });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sb-links-'));
    layout = workspaceLayout(join(root, 'data'));
    await makeCraftedRepo(root, 'linked', (_blob, git) =>
      writeTree(git, {
        'README.md': '# linked\n',
        'docs/index.md': { linkTo: '../README.md' },
      }),
    );
    server = await startGitHttpServer(root);
  });

  afterAll(async () => {
    try {
      await server.close();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('commits an archive’s links as mode 120000 blobs holding their targets', async () => {
    const archive = join(root, 'linked.zip');
    await writeFile(
      archive,
      buildZip([
        { name: 'proj/README.md', data: '# proj\n' },
        { name: 'proj/shared/tsconfig.json', data: '{}\n' },
        link('proj/docs/index.md', '../README.md'),
        link('proj/packages/web/shared', '../../shared'),
      ]),
    );
    const created = await createSourceFromArchive({ layout, sourceId: 'from-zip', archive });
    if (!created.ok) throw created.error;
    const git = (...args: string[]) =>
      testGit(root, [`--git-dir=${created.source.gitDir}`, ...args]);
    const listing = (await git('ls-tree', '-r', created.commit)).split('\n');
    expect(listing.map((line) => line.replace(/ [0-9a-f]{40}\t/, ' <blob>\t'))).toEqual([
      '100644 blob <blob>\tREADME.md',
      '120000 blob <blob>\tdocs/index.md',
      '120000 blob <blob>\tpackages/web/shared',
      '100644 blob <blob>\tshared/tsconfig.json',
    ]);
    expect(await git('cat-file', 'blob', `${created.commit}:packages/web/shared`)).toBe(
      '../../shared',
    );

    const task = await TaskWorktree.create({
      layout,
      source: created.source,
      taskId: 'zip-task',
      commit: created.commit,
    });
    expect(await readlink(join(task.path, 'docs', 'index.md'))).toBe('../README.md');
    expect(await readFile(join(task.path, 'packages/web/shared/tsconfig.json'), 'utf8')).toBe(
      '{}\n',
    );
    await task.remove();
  });

  it('refuses an archive with an escaping link and leaves no source behind', async () => {
    const archive = join(root, 'escape.zip');
    await writeFile(archive, buildZip([{ name: 'a/f', data: 'x' }, link('a/b', '../../etc')]));
    const created = await createSourceFromArchive({ layout, sourceId: 'escape', archive });
    expect(created.ok ? 'accepted' : [created.error.code, created.error.message]).toEqual([
      'ARCHIVE_LINK',
      "link 'a/b' points outside the tree (../../etc)",
    ]);
    expect(existsSync(join(layout.sourcesDir, 'escape.git'))).toBe(false);
    expect((await readdir(layout.sourcesDir)).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('checks a cloned tree’s valid link out as a link in the task worktree', async () => {
    const created = await createSourceFromGit({
      layout,
      sourceId: 'from-git',
      url: `http://git.test:${server.port}/linked.git`,
      policy,
    });
    if (!created.ok) throw created.error;
    const task = await TaskWorktree.create({
      layout,
      source: created.source,
      taskId: 'git-task',
      commit: created.commit,
    });
    expect(await readlink(join(task.path, 'docs', 'index.md'))).toBe('../README.md');
    expect(await readFile(join(task.path, 'docs', 'index.md'), 'utf8')).toBe('# linked\n');
    await task.remove();
  });
});
