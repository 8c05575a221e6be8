import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZip } from '../../test-support/zip-builder';
import { snapshotTreeContents } from '../../test-support/tree-snapshot';
import { createSourceFromArchive } from './create-source';
import { pruneStaleWorktrees } from './prune-worktrees';
import type { SourceRepo } from './source-repo';
import { TaskWorktree } from './task-worktree';
import { workspaceLayout, type WorkspaceLayout } from './workspace-layout';

const pwned = `/tmp/sb-ws-pwned-${process.pid}`;
const withoutGitFile = (tree: Map<string, string>) =>
  new Map([...tree].filter(([path]) => path !== '.git'));

describe('source repositories and task worktrees', () => {
  let root: string;
  let layout: WorkspaceLayout;
  let archive: string;
  let source: SourceRepo;
  let baseline: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sb-ws-'));
    layout = workspaceLayout(join(root, 'data'));
    archive = join(root, 'project.zip');
    await writeFile(
      archive,
      buildZip([
        { name: 'project/src/lib.js', data: 'export const a = 1;\nexport const b = 2;\n' },
        { name: 'project/crlf.txt', data: 'line one\nline two\n' },
        // Would convert line endings and hide a file from `git add` if in-tree rules were obeyed.
        { name: 'project/.gitattributes', data: '* text eol=crlf\n*.js -diff\n' },
        { name: 'project/.gitignore', data: 'ignored.txt\nbuild/\n' },
        { name: 'project/ignored.txt', data: 'still imported\n' },
        { name: 'project/run.sh', data: '#!/bin/sh\necho hi\n', unixMode: 0o100755 },
        { name: 'project/logo.bin', data: Buffer.from([0, 1, 2, 3, 255, 0, 10]) },
      ]),
    );
    const created = await createSourceFromArchive({ layout, sourceId: 'src-one', archive });
    if (!created.ok) throw created.error;
    source = created.source;
    baseline = created.commit;
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('imports an archive as one deterministic commit, byte-exact despite its .gitattributes', async () => {
    const again = await createSourceFromArchive({ layout, sourceId: 'src-two', archive });
    expect(again.ok && again.commit).toBe(baseline);
    const task = await TaskWorktree.create({ layout, source, taskId: 'exact', commit: baseline });
    expect(await readFile(join(task.path, 'crlf.txt'), 'utf8')).toBe('line one\nline two\n');
    expect(await readFile(join(task.path, 'ignored.txt'), 'utf8')).toBe('still imported\n');
    expect(existsSync(join(task.path, '.git'))).toBe(true);
    await task.remove();
    expect(existsSync(task.path)).toBe(false);
  });

  it('refuses a second source with the same id', async () => {
    await expect(createSourceFromArchive({ layout, sourceId: 'src-one', archive })).rejects.toThrow(
      /already exists/,
    );
  });

  it('gives two tasks on one source separate files', async () => {
    const a = await TaskWorktree.create({ layout, source, taskId: 'task-a', commit: baseline });
    const b = await TaskWorktree.create({ layout, source, taskId: 'task-b', commit: baseline });
    await writeFile(join(a.path, 'only-a.txt'), 'a');
    await a.checkpoint('a writes');
    expect(existsSync(join(b.path, 'only-a.txt'))).toBe(false);
    expect(await b.diffSince(baseline)).toEqual(Buffer.alloc(0));
    await a.remove();
    await b.remove();
  });

  it('checkpoints, diffs exactly (delete, rename, mode, binary) and rolls back exactly', async () => {
    const task = await TaskWorktree.create({
      layout,
      source,
      taskId: 'task-diff',
      commit: baseline,
    });
    const before = await snapshotTreeContents(task.path);
    await writeFile(
      join(task.path, 'src', 'lib.js'),
      'export const a = 10;\nexport const b = 2;\n',
    );
    await unlink(join(task.path, 'crlf.txt'));
    await execa('mv', [join(task.path, 'ignored.txt'), join(task.path, 'renamed.txt')]);
    await chmod(join(task.path, 'src', 'lib.js'), 0o755);
    await writeFile(join(task.path, 'logo.bin'), Buffer.from([0, 9, 9, 9, 0, 255]));
    await writeFile(join(task.path, 'new file.txt'), 'brand new\n');
    const diff = await task.diffSince(baseline);
    const text = diff.toString('utf8');
    for (const marker of [
      'deleted file mode 100644',
      'rename from ignored.txt',
      'rename to renamed.txt',
      'old mode 100644',
      'new mode 100755',
      'GIT binary patch',
      '-export const a = 1;',
      '+brand new',
    ]) {
      expect(text).toContain(marker);
    }
    const cp = await task.checkpoint('fix attempt\nwith a second line');
    expect(cp).toMatch(/^[0-9a-f]{40}$/);
    expect(await task.head()).toBe(cp);
    expect(await task.diffSince(baseline)).toEqual(diff);
    const after = await snapshotTreeContents(task.path);

    // The diff bytes reproduce the change exactly on a fresh checkout of the baseline.
    const replay = await TaskWorktree.create({
      layout,
      source,
      taskId: 'task-replay',
      commit: baseline,
    });
    await execa('git', ['apply', '--binary', '-'], {
      cwd: replay.path,
      input: diff,
      env: { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    });
    expect(withoutGitFile(await snapshotTreeContents(replay.path))).toEqual(withoutGitFile(after));
    await replay.remove();

    await writeFile(join(task.path, 'untracked.txt'), 'junk');
    await mkdir(join(task.path, 'build'));
    await writeFile(join(task.path, 'build', 'out.o'), 'ignored build output');
    await task.rollbackTo(baseline);
    // The ignored build output stays (later runs build incrementally); everything else is exact.
    const kept = withoutGitFile(await snapshotTreeContents(task.path));
    expect(kept.get('build/out.o')).toBe(
      `644:${Buffer.from('ignored build output').toString('base64')}`,
    );
    kept.delete('build/out.o');
    kept.delete('build/');
    expect(kept).toEqual(withoutGitFile(before));
    expect(await task.head()).toBe(baseline);
    expect(await task.diffSince(baseline)).toEqual(Buffer.alloc(0));
    await task.remove();
  });

  it('rolls back to a fresh checkout with keepIgnored: false, ignored files included', async () => {
    const task = await TaskWorktree.create({
      layout,
      source,
      taskId: 'full-clean',
      commit: baseline,
    });
    const before = await snapshotTreeContents(task.path);
    await writeFile(join(task.path, 'src', 'lib.js'), 'changed\n');
    await task.checkpoint('change');
    await writeFile(join(task.path, 'untracked.txt'), 'junk');
    await mkdir(join(task.path, 'build', 'deep'), { recursive: true });
    await writeFile(join(task.path, 'build', 'deep', 'out.o'), 'ignored build output');
    await task.rollbackTo(baseline, { keepIgnored: false });
    expect(withoutGitFile(await snapshotTreeContents(task.path))).toEqual(withoutGitFile(before));
    expect(await task.head()).toBe(baseline);
    await task.remove();
  });

  // A run that writes into the worktree could otherwise hide a file from every later rollback
  // (and from every diff) by writing an untracked .gitignore next to it.
  it('regression: rollback keeps no file that an untracked .gitignore hides', async () => {
    const task = await TaskWorktree.create({ layout, source, taskId: 'planted', commit: baseline });
    const before = await snapshotTreeContents(task.path);
    await writeFile(join(task.path, 'src', '.gitignore'), '.gitignore\nconftest.py\n');
    await writeFile(join(task.path, 'src', 'conftest.py'), 'fake pass\n');
    await mkdir(join(task.path, 'hidden', 'deeper'), { recursive: true });
    await writeFile(join(task.path, 'hidden', '.gitignore'), '*\n');
    await writeFile(join(task.path, 'hidden', 'deeper', 'conftest.py'), 'fake pass\n');
    await writeFile(join(task.path, 'hidden', 'deeper', '.gitignore'), '*\n');
    // Ignored by the tree's own (tracked) rules: kept, its inner .gitignore included.
    await mkdir(join(task.path, 'build'));
    await writeFile(join(task.path, 'build', '.gitignore'), '*\n');
    await writeFile(join(task.path, 'build', 'out.o'), 'kept');
    expect(await task.diffSince(baseline)).toEqual(Buffer.alloc(0));
    await task.rollbackTo(baseline);
    const after = withoutGitFile(await snapshotTreeContents(task.path));
    expect([...after.keys()].filter((p) => !before.has(p)).sort()).toEqual([
      'build/',
      'build/.gitignore',
      'build/out.o',
    ]);
    await task.remove();
  });

  it('keeps concurrent checkpoints on one repository safe and separate', async () => {
    const tasks = await Promise.all(
      ['conc-a', 'conc-b', 'conc-c'].map((taskId) =>
        TaskWorktree.create({ layout, source, taskId, commit: baseline }),
      ),
    );
    const shas = await Promise.all(
      tasks.flatMap((task) =>
        Array.from({ length: 5 }, async (_, i) => {
          await writeFile(join(task.path, `${task.taskId}-${i}.txt`), `${i}`);
          return task.checkpoint(`${task.taskId} #${i}`);
        }),
      ),
    );
    expect(new Set(shas).size).toBe(15);
    for (const task of tasks) {
      const diff = (await task.diffSince(baseline)).toString('utf8');
      expect(diff.match(/^diff --git/gm)?.length).toBe(5);
      expect(diff).not.toMatch(
        new RegExp(
          tasks
            .filter((t) => t !== task)
            .map((t) => t.taskId)
            .join('|'),
        ),
      );
      await task.remove();
    }
  });

  it('ignores a hostile .git planted in the worktree', async () => {
    const task = await TaskWorktree.create({ layout, source, taskId: 'hostile', commit: baseline });
    await rm(join(task.path, '.git'));
    await mkdir(join(task.path, '.git', 'hooks'), { recursive: true });
    await writeFile(
      join(task.path, '.git', 'config'),
      `[core]\n\tfsmonitor = touch ${pwned}\n\tbare = false\n`,
    );
    await writeFile(join(task.path, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    await writeFile(join(task.path, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\ntouch ${pwned}\n`, {
      mode: 0o755,
    });
    await writeFile(join(task.path, 'src', 'lib.js'), 'changed\n');
    const sha = await task.checkpoint('after tampering');
    expect((await task.diffSince(baseline)).toString()).toContain('+changed');
    await task.rollbackTo(baseline);
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    await task.remove();
    expect(existsSync(task.path)).toBe(false);
    expect(existsSync(pwned)).toBe(false);
  });

  it('prunes stale worktrees at start-up so their paths can be reused', async () => {
    const alive = await TaskWorktree.create({ layout, source, taskId: 'alive', commit: baseline });
    const crashed = await TaskWorktree.create({
      layout,
      source,
      taskId: 'crashed',
      commit: baseline,
    });
    const vanished = await TaskWorktree.create({
      layout,
      source,
      taskId: 'vanished',
      commit: baseline,
    });
    await rm(vanished.path, { recursive: true, force: true });
    await mkdir(join(layout.worktreesDir, 'orphan'));
    const halfBuilt = join(layout.sourcesDir, '.crashed-src.tmp-abc123');
    await mkdir(join(halfBuilt, 'repo.git'), { recursive: true });
    await expect(
      TaskWorktree.create({ layout, source, taskId: 'crashed', commit: baseline }),
    ).rejects.toThrow(/already exists/);
    const removed = await pruneStaleWorktrees(layout, new Set(['alive']));
    expect(removed.sort()).toEqual(['crashed', 'orphan', 'vanished']);
    expect(existsSync(crashed.path)).toBe(false);
    expect(existsSync(halfBuilt)).toBe(false);
    expect(existsSync(alive.path)).toBe(true);
    const again = await TaskWorktree.create({
      layout,
      source,
      taskId: 'crashed',
      commit: baseline,
    });
    expect(await again.head()).toBe(baseline);
    const reopened = await TaskWorktree.open({ layout, source, taskId: 'alive' });
    expect(await reopened.head()).toBe(baseline);
  });
});
