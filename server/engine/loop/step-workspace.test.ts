import { describe, expect, it } from 'vitest';
import { createScriptedFixer } from './fixer';
import type { EnsuredWorkspace, WorkspacePort, WorkspaceRestore } from './loop-ports';
import { stepTask, type LoopDeps } from './task-step';
import type { TaskStatus } from './task-status';
import {
  FakeSetup,
  FakeShadows,
  FakeWorkspace,
  fakeWorkspaces,
  hypothesis,
  loopDeps,
  MemoryLoopStore,
} from './test-support/fake-loop';

/**
 * Workspaces that another worker's disk held: `arrive` makes the next `ensure` report what a
 * rebuild did, and the worktree stays set-up-pending until the loop says the setup ran again.
 */
class MovingWorkspaces {
  pending = false;
  private next: WorkspaceRestore | null = null;
  readonly calls: { status: TaskStatus; setupRan: boolean }[] = [];
  readonly port: WorkspacePort;

  constructor(private readonly workspace: FakeWorkspace) {
    this.port = {
      ...fakeWorkspaces(workspace),
      ensure: (task, { setupRan }) => {
        this.calls.push({ status: task.status, setupRan });
        const restored = this.next;
        this.next = null;
        if (restored?.worktree === 'created' && setupRan) this.pending = true;
        const ensured: EnsuredWorkspace = {
          workspace: this.workspace,
          restored,
          setupPending: this.pending,
        };
        return Promise.resolve(ensured);
      },
      setupRestored: () => {
        this.pending = false;
        return Promise.resolve();
      },
    };
  }

  arrive(restored: WorkspaceRestore): void {
    this.next = restored;
  }
}

const rebuilt: WorkspaceRestore = { repository: true, bundles: 3, worktree: 'created' };

async function stepUntil(deps: LoopDeps, store: MemoryLoopStore, status: TaskStatus) {
  for (let i = 0; i < 20 && store.state.status !== status; i++) {
    await stepTask(deps, 'task1', new AbortController().signal);
  }
  expect(store.state.status).toBe(status);
}

async function drive(deps: LoopDeps, signal = new AbortController().signal) {
  for (let i = 0; i < 20; i++) {
    const outcome = await stepTask(deps, 'task1', signal);
    if (outcome.kind !== 'continue') return outcome;
  }
  throw new Error('the loop did not settle');
}

function setUp() {
  const store = new MemoryLoopStore();
  const workspace = new FakeWorkspace();
  const moving = new MovingWorkspaces(workspace);
  const setup = new FakeSetup();
  const shadows = new FakeShadows();
  const deps = loopDeps({
    store,
    setup,
    shadows,
    fixer: createScriptedFixer([[hypothesis('wrong')], [hypothesis('right')]]),
    workspaces: moving.port,
  });
  return { store, moving, setup, shadows, deps };
}

describe('ensureWorkspace: a task carried on by a worker that lacks its workspace', () => {
  it('rebuilds the worktree and runs the setup again before the next run', async () => {
    const { store, moving, setup, deps } = setUp();
    await stepUntil(deps, store, 'iterating');
    expect(setup.runs).toHaveLength(1);
    const before = store.events.length;

    moving.arrive(rebuilt);
    expect(await drive(deps)).toEqual({ kind: 'done' });

    const after = store.types().slice(before);
    expect(after.slice(0, 4)).toEqual([
      'workspace.restored',
      'run.output',
      'setup.finished',
      'iteration.running',
    ]);
    expect(store.events[before]).toEqual({
      type: 'workspace.restored',
      checkpointSha: store.task.baselineCommit,
      worktreePath: '/ws',
      ...rebuilt,
    });
    expect(setup.runs).toHaveLength(2);
    expect(moving.pending).toBe(false);
    expect(store.state.status).toBe('awaiting_review');
  });

  it('asks for the worktree in every phase that runs in it, telling whether the setup ran', async () => {
    const { store, moving, deps } = setUp();
    await drive(deps);
    const seen = moving.calls.map((c) => `${c.status}:${String(c.setupRan)}`);
    expect(seen[0]).toBe('setup:false');
    expect(seen).toContain('baseline:true');
    expect(seen).toContain('iterating:true');
    expect(moving.calls.some((c) => c.status === 'preparing' || c.status === 'queued')).toBe(false);
    expect(store.types()).not.toContain('workspace.restored');
  });

  it('ends the task failed when the setup fails again in the rebuilt worktree', async () => {
    const { store, moving, shadows, deps } = setUp();
    await stepUntil(deps, store, 'iterating');
    const runs = shadows.requests.length;
    moving.arrive(rebuilt);
    const failing = new FakeSetup(undefined, {
      ok: false,
      failedCommand: ['npm', 'ci'],
      exitCode: 1,
      egress: [],
    });

    expect(await drive({ ...deps, setup: failing })).toEqual({ kind: 'done' });
    expect(store.state.status).toBe('failed');
    expect(store.events.at(-1)).toEqual({
      type: 'task.failed',
      reason: "setup 'npm ci' exited with 1",
    });
    expect(shadows.requests).toHaveLength(runs);
  });

  it('a worker stopped during the setup again leaves it pending, and the next step runs it', async () => {
    const { store, moving, setup, deps } = setUp();
    await stepUntil(deps, store, 'iterating');
    moving.arrive(rebuilt);
    const stopping = new AbortController();
    stopping.abort();

    expect(await stepTask(deps, 'task1', stopping.signal)).toEqual({ kind: 'continue' });
    expect(moving.pending).toBe(true);
    expect(store.types()).not.toContain('iteration.running');

    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(setup.runs).toHaveLength(3);
    expect(moving.pending).toBe(false);
  });

  it('only moves the worktree to the checkpoint when it was at an older one: no setup', async () => {
    const { store, moving, setup, deps } = setUp();
    await stepUntil(deps, store, 'iterating');
    moving.arrive({ repository: false, bundles: 1, worktree: 'reset' });
    expect(await drive(deps)).toEqual({ kind: 'done' });
    expect(store.types()).toContain('workspace.restored');
    expect(setup.runs).toHaveLength(1);
  });
});
