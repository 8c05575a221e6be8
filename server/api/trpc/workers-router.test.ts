import { describe, expect, it } from 'vitest';
import { cliActor, type Actor } from '../../auth/actor';
import { fakeToken, fakeUser } from '../../test-support/actors';
import type { WorkerView } from '../../jobs';
import { workerAlias, workerIdFor } from '../../auth/worker-alias';
import { FakeTaskService } from '../http/test-support/fake-tasks';
import { createContextInner } from './context';
import { createCaller } from './root';

/** system.workers: host names and pids are the admin's; others see load and an opaque id. */
const worker: WorkerView = {
  id: 'build-7.internal:4242:9f3c01ab',
  host: 'build-7.internal',
  pid: 4242,
  capacity: 2,
  running: 1,
  tasks: 3,
  state: 'live',
  startedAt: '2026-12-01T10:00:00.000Z',
  heartbeatAt: '2026-12-01T10:05:00.000Z',
  stoppedAt: null,
};

const workersAs = (actor: Actor) =>
  createCaller(
    createContextInner({
      runtime: { tasks: new FakeTaskService(), listWorkers: () => Promise.resolve([worker]) },
      actor,
    }),
  ).system.workers();

describe('system.workers', () => {
  it('shows an admin every worker’s host, pid and id', async () => {
    expect(await workersAs(fakeUser('root', 'admin'))).toEqual([worker]);
  });

  it.each([
    ['an author', fakeUser('alice', 'author')],
    ['a reviewer', fakeUser('rita', 'reviewer')],
    ['an admin’s token (it acts with its scopes)', fakeToken('root', ['agent'], 'admin')],
  ])('hides the host and pid from %s: counts and an opaque id only', async (_, actor) => {
    const seen = await workersAs(actor);
    expect(seen).toEqual([
      {
        ...worker,
        id: workerAlias(worker.id),
        host: null,
        pid: null,
      },
    ]);
    const text = JSON.stringify(seen);
    expect(text).not.toContain('build-7');
    expect(text).not.toContain('4242');
    expect(seen[0]?.id).toMatch(/^worker-[0-9a-f]{12}$/);
  });

  it('gives a task’s worker the same alias, so the panel still matches tasks to workers', () => {
    const author = fakeUser('alice', 'author');
    expect(workerIdFor(author, worker.id)).toBe(workerAlias(worker.id));
    expect(workerIdFor(author, null)).toBeNull();
    expect(workerIdFor(cliActor, worker.id)).toBe(worker.id);
    expect(workerIdFor(fakeUser('root', 'admin'), worker.id)).toBe(worker.id);
  });
});
