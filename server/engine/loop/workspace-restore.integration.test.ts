import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../errors/app-error';
import { snapshotTreeContents } from '../../test-support/tree-snapshot';
import { buildZip } from '../../test-support/zip-builder';
import type { BundleHead, BundleStore, StoredBundle } from '../workspace/bundle-store';
import { createSourceFromArchive } from '../workspace/create-source';
import { gitText } from '../workspace/git';
import { keepBundle } from '../workspace/source-bundles';
import { sourceGitDir, workspaceLayout } from '../workspace/workspace-layout';
import { createGitWorkspaces } from './git-workspaces';
import type { LoopTask } from './loop-ports';
import { MemoryLoopStore } from './test-support/fake-loop';

/** The database's part, in memory: bundles by source and tip, nothing else shared. */
class MemoryBundles implements BundleStore {
  readonly rows = new Map<string, StoredBundle>();
  put(bundle: StoredBundle) {
    const key = `${bundle.sourceId} ${bundle.tipSha}`;
    if (!this.rows.has(key)) this.rows.set(key, bundle);
    return Promise.resolve();
  }
  heads(sourceId: string): Promise<readonly BundleHead[]> {
    return Promise.resolve([...this.rows.values()].filter((b) => b.sourceId === sourceId));
  }
  read(sourceId: string, tipSha: string) {
    const row = this.rows.get(`${sourceId} ${tipSha}`);
    if (row === undefined) return Promise.reject(new AppError('NOT_FOUND', `no ${tipSha}`));
    return Promise.resolve(row.bytes);
  }
}

const withoutGitFile = (tree: Map<string, string>) =>
  new Map([...tree].filter(([path]) => path !== '.git'));

describe('a workspace rebuilt from git bundles on a disk that never held it', () => {
  let root: string;
  const bundles = new MemoryBundles();
  const sourceId = 'upload-1';
  let baseline: string;
  let task: LoopTask;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'sb-restore-'));
    // The web process takes the upload: the source and its complete bundle.
    const web = workspaceLayout(join(root, 'web'));
    const archive = join(root, 'p.zip');
    await writeFile(
      archive,
      buildZip([
        { name: 'p/calc.py', data: 'def add(a, b):\n    return a - b\n' },
        {
          name: 'p/test_calc.py',
          data: 'from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n',
        },
        { name: 'p/run.sh', data: '#!/bin/sh\necho hi\n', unixMode: 0o100755 },
      ]),
    );
    const created = await createSourceFromArchive({ layout: web, sourceId, archive });
    if (!created.ok) throw created.error;
    baseline = created.commit;
    await keepBundle({
      gitDir: created.source.gitDir,
      sourceId,
      commit: baseline,
      kind: 'baseline',
      bundles,
    });
    task = {
      ...(await new MemoryLoopStore({ id: 'task-1', sourceId }).load()),
      status: 'preparing',
      baselineCommit: baseline,
      checkpointSha: baseline,
    };
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('makes the source, applies both checkpoints in order, and checks out the newest', async () => {
    // Worker A: prepares from the bundle alone (it never saw the upload), commits two checkpoints.
    const aDir = join(root, 'worker-a');
    const a = createGitWorkspaces({ layout: workspaceLayout(aDir), bundles });
    const prepared = await a.prepare(task, { emit: () => undefined });
    if (!prepared.ok) throw new Error(prepared.message);
    const ws = prepared.workspace;
    await writeFile(join(ws.path, 'calc.py'), 'def add(a, b):\n    return a + b\n');
    const first = await ws.checkpoint('Iteration 1: fix', ['calc.py']);
    await writeFile(join(ws.path, 'NOTES.md'), 'fixed\n');
    await rm(join(ws.path, 'run.sh'));
    const second = await ws.checkpoint('Iteration 2: notes', ['NOTES.md', 'run.sh']);
    const expected = withoutGitFile(await snapshotTreeContents(ws.path));
    expect([...bundles.rows.values()].map((b) => [b.tipSha, b.baseSha])).toEqual([
      [baseline, null],
      [first, baseline],
      [second, first],
    ]);

    // The machine is gone, data directory and all.
    await rm(aDir, { recursive: true, force: true });

    const bDir = join(root, 'worker-b');
    const b = createGitWorkspaces({ layout: workspaceLayout(bDir), bundles });
    const at = { ...task, status: 'iterating' as const, checkpointSha: second };
    const ensured = await b.ensure(at, { setupRan: true });
    expect(ensured.restored).toEqual({ repository: true, bundles: 3, worktree: 'created' });
    expect(ensured.setupPending).toBe(true);
    expect(withoutGitFile(await snapshotTreeContents(ensured.workspace.path))).toEqual(expected);
    const gitDir = sourceGitDir(workspaceLayout(bDir), sourceId);
    expect(
      await gitText({
        gitDir: join(gitDir, 'worktrees', 'task-1'),
        workTree: ensured.workspace.path,
        args: ['rev-parse', 'HEAD'],
      }),
    ).toBe(second);
    expect(await gitText({ gitDir, args: ['log', '--format=%s', second] })).toBe(
      ['Iteration 2: notes', 'Iteration 1: fix', 'Import archive'].join('\n'),
    );
    // The diff a reviewer approves is the same bytes on the new disk.
    expect((await ensured.workspace.diffBetween(baseline, second)).toString()).toContain(
      '+    return a + b',
    );

    // Asked again: everything is here, only the setup is still owed.
    const again = await b.ensure(at, { setupRan: true });
    expect(again.restored).toBeNull();
    expect(again.setupPending).toBe(true);
    await b.setupRestored(at);
    expect((await b.ensure(at, { setupRan: true })).setupPending).toBe(false);
  });

  it('brings a worker that holds an older checkpoint up to the newest, keeping its setup outputs', async () => {
    const cDir = join(root, 'worker-c');
    const c = createGitWorkspaces({ layout: workspaceLayout(cDir), bundles });
    const [, first, second] = [...bundles.rows.values()].map((b) => b.tipSha);
    if (first === undefined || second === undefined) throw new Error('the first test made none');
    const older = await c.ensure(
      { ...task, status: 'iterating', checkpointSha: first },
      { setupRan: false },
    );
    expect(older.restored).toEqual({ repository: true, bundles: 2, worktree: 'created' });
    // An install output, excluded the way setup excludes it.
    await writeFile(
      join(sourceGitDir(workspaceLayout(cDir), sourceId), 'info', 'exclude'),
      '.venv/\n',
    );
    await mkdir(join(older.workspace.path, '.venv'));
    await writeFile(join(older.workspace.path, '.venv', 'marker'), 'installed\n');

    const newer = await c.ensure(
      { ...task, status: 'iterating', checkpointSha: second },
      { setupRan: true },
    );
    expect(newer.restored).toEqual({ repository: false, bundles: 1, worktree: 'reset' });
    expect(newer.setupPending).toBe(false);
    expect(await readFile(join(newer.workspace.path, 'NOTES.md'), 'utf8')).toBe('fixed\n');
    expect(await readFile(join(newer.workspace.path, '.venv', 'marker'), 'utf8')).toBe(
      'installed\n',
    );
  });

  it('refuses a checkpoint whose bundle was never stored, naming it', async () => {
    const d = createGitWorkspaces({ layout: workspaceLayout(join(root, 'worker-d')), bundles });
    const missing = 'f'.repeat(40);
    await expect(
      d.ensure({ ...task, status: 'iterating', checkpointSha: missing }, { setupRan: false }),
    ).rejects.toThrow(`cannot be rebuilt at ${missing}`);
  });
});
