import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from '../workspace/git';
import { importDirectory, initBare, type SourceRepo } from '../workspace/source-repo';
import { TaskWorktree } from '../workspace/task-worktree';
import { sourceGitDir, workspaceLayout, type WorkspaceLayout } from '../workspace/workspace-layout';
import { excludeOutputs, excludePatternsFor } from './setup-outputs';

async function put(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

// What a setup and a test run leave in a workspace.
const outputs = {
  'node_modules/x.js': 'module.exports = 1;\n',
  'node_modules/.bin/tool': '#!/bin/sh\n',
  'packages/a/node_modules/y.js': 'nested workspace install\n',
  '.venv/bin/python': 'not really python\n',
  '.venv/pyvenv.cfg': 'home = /usr/bin\n',
  'src/__pycache__/lib.cpython-311.pyc': '\0pyc',
  'src/demo.egg-info/PKG-INFO': 'Name: demo\n',
  '.pytest_cache/v/cache/lastfailed': '{}',
  '.shadowbox/go/mod/cache/download/x': 'zip',
  'build/CMakeCache.txt': 'CMAKE_HOME_DIRECTORY=/x\n',
};

describe('setup outputs stay out of every change', () => {
  let root: string;
  let layout: WorkspaceLayout;
  let source: SourceRepo;
  let baseline: string;
  const gitignore = 'dist/\n';

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sb-outputs-'));
    layout = workspaceLayout(join(root, 'data'));
    const project = join(root, 'project');
    await put(project, {
      'package.json': '{"name":"demo"}\n',
      'src/lib.js': 'export const a = 1;\n',
      'src/other.js': 'export const b = 2;\n',
      'packages/a/package.json': '{}\n',
      '.gitignore': gitignore,
    });
    source = { id: 'outputs', gitDir: sourceGitDir(layout, 'outputs') };
    await mkdir(layout.sourcesDir, { recursive: true });
    await initBare(source.gitDir);
    baseline = await importDirectory(source.gitDir, project);
    await excludeOutputs(
      source.gitDir,
      excludePatternsFor({ outputs: ['node_modules', '.venv', '.shadowbox/go', 'build'] }),
    );
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const status = (task: TaskWorktree) =>
    git({
      gitDir: join(source.gitDir, 'worktrees', task.taskId),
      workTree: task.path,
      cwd: task.path,
      args: ['status', '--porcelain', '--untracked-files=all'],
    }).then((out) => out.toString('utf8'));

  it('git status shows none of them, and the .gitignore of the tree is untouched', async () => {
    const task = await TaskWorktree.create({ layout, source, taskId: 'status', commit: baseline });
    await put(task.path, outputs);
    expect(await status(task)).toBe('');
    expect(await readFile(join(task.path, '.gitignore'), 'utf8')).toBe(gitignore);
    await writeFile(join(task.path, 'new.js'), 'x\n');
    expect(await status(task)).toBe('?? new.js\n');
    await task.remove();
  });

  it('checkpoints and diffs never contain them', async () => {
    const task = await TaskWorktree.create({ layout, source, taskId: 'diffs', commit: baseline });
    await writeFile(join(task.path, 'src', 'lib.js'), 'export const a = 10;\n');
    // The checkpoint of a path list, before the outputs exist: the reference diff.
    const reference = await TaskWorktree.create({
      layout,
      source,
      taskId: 'reference',
      commit: baseline,
    });
    await writeFile(join(reference.path, 'src', 'lib.js'), 'export const a = 10;\n');
    const expected = await reference.diffBetween(
      baseline,
      await reference.checkpoint('fix', ['src/lib.js']),
    );
    await reference.remove();

    await put(task.path, outputs);
    const listed = await task.checkpoint('fix', ['src/lib.js']);
    expect(await task.diffBetween(baseline, listed)).toEqual(expected);
    expect(expected.toString()).toContain('+export const a = 10;');

    await writeFile(join(task.path, 'src', 'other.js'), 'export const b = 20;\n');
    const live = (await task.diffSince(baseline)).toString();
    const everything = await task.checkpoint('add --all');
    const committed = (await task.diffBetween(baseline, everything)).toString();
    for (const diff of [live, committed]) {
      expect(diff.match(/^diff --git .*$/gm)).toEqual([
        'diff --git a/src/lib.js b/src/lib.js',
        'diff --git a/src/other.js b/src/other.js',
      ]);
      expect(diff).not.toMatch(/node_modules|\.venv|__pycache__|egg-info|\.shadowbox|build\//);
    }
    await task.remove();
  });

  it('a rollback keeps them; a full one removes them', async () => {
    const task = await TaskWorktree.create({
      layout,
      source,
      taskId: 'rollback',
      commit: baseline,
    });
    await put(task.path, outputs);
    await writeFile(join(task.path, 'stray.txt'), 'not an output\n');
    await task.rollbackTo(baseline);
    for (const path of Object.keys(outputs)) expect(existsSync(join(task.path, path))).toBe(true);
    expect(existsSync(join(task.path, 'stray.txt'))).toBe(false);
    await task.rollbackTo(baseline, { keepIgnored: false });
    for (const path of Object.keys(outputs)) expect(existsSync(join(task.path, path))).toBe(false);
    expect(await status(task)).toBe('');
    await task.remove();
  });
});
