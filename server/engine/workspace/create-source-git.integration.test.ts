import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitUrlPolicy } from '../intake/git-url-policy';
import {
  makeCraftedRepo,
  makeFixtureRepo,
  type FixtureRepo,
} from '../../test-support/git-fixtures';
import { startGitHttpServer, type LoopbackServer } from '../../test-support/git-http-server';
import { createSourceFromGit } from './create-source';
import { TaskWorktree } from './task-worktree';
import { workspaceLayout, type WorkspaceLayout } from './workspace-layout';

describe('a Git source served by git http-backend becomes a bare repo with task worktrees', () => {
  let root: string;
  let layout: WorkspaceLayout;
  let fixture: FixtureRepo;
  let server: LoopbackServer;
  const policy = new GitUrlPolicy({
    resolver: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
    testOnlyAllowLoopback: true,
  });
  const url = (repo: string) => `http://git.test:${server.port}/${repo}`;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sb-ws-git-'));
    fixture = await makeFixtureRepo(root, 'fixture');
    await makeCraftedRepo(root, 'linked', (blob, git) =>
      git(['mktree'], `120000 blob ${blob}\tlink\n`),
    );
    server = await startGitHttpServer(root);
    layout = workspaceLayout(join(root, 'data'));
  });

  afterAll(async () => {
    try {
      await server.close();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it.each([
    ['tag', 'v1.0', 'export const v = 1;\n'],
    ['branch', 'feature', 'export const v = 2;\n'],
  ])('clones at a %s and creates a task worktree on it', async (kind, ref, lib) => {
    const created = await createSourceFromGit({
      layout,
      sourceId: `fixture-${kind}`,
      url: url('fixture.git'),
      ref,
      policy,
    });
    if (!created.ok) throw created.error;
    expect(created.commit).toBe(kind === 'tag' ? fixture.tagged : fixture.feature);
    const task = await TaskWorktree.create({
      layout,
      source: created.source,
      taskId: `t-${kind}`,
      commit: created.commit,
    });
    expect(await readFile(join(task.path, 'src', 'lib.js'), 'utf8')).toBe(lib);
    expect(await task.head()).toBe(created.commit);
    // The clone keeps the pack it fetched: no object is left loose.
    const counts = await execa('git', [
      `--git-dir=${created.source.gitDir}`,
      'count-objects',
      '-v',
    ]);
    expect(counts.stdout).toMatch(/^count: 0$/m);
    expect(counts.stdout).not.toMatch(/^in-pack: 0$/m);
    await task.remove();
  });

  it('rejects a tree with a symlink before anything is checked out, leaving no source behind', async () => {
    const created = await createSourceFromGit({
      layout,
      sourceId: 'linked',
      url: url('linked.git'),
      policy,
    });
    expect(created.ok ? 'accepted' : created.error.code).toBe('GIT_TREE_SYMLINK');
    expect(existsSync(join(layout.sourcesDir, 'linked.git'))).toBe(false);
    expect((await readdir(layout.sourcesDir)).filter((name) => name.startsWith('.'))).toEqual([]);
  });
});
