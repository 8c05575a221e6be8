import { TRPCError } from '@trpc/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { cliActor } from '../../auth/actor';
import { fakeUser } from '../../test-support/actors';
import { FakeTaskService } from '../http/test-support/fake-tasks';
import { createContextInner } from './context';
import { createCaller } from './root';

let tasks: FakeTaskService;
const rita = fakeUser('rita', 'reviewer');
const caller = () => createCaller(createContextInner({ runtime: { tasks }, actor: rita }));

beforeEach(() => {
  tasks = new FakeTaskService();
});

describe('tasks.remotes and tasks.push', () => {
  it('lists the remotes without credentials', async () => {
    tasks.remotes.push({ name: 'origin', url: 'https://git.example/team/app.git', forge: 'gitea' });
    expect(await caller().tasks.remotes()).toEqual([
      { name: 'origin', url: 'https://git.example/team/app.git', forge: 'gitea' },
    ]);
  });

  it('pushes an approved task with the body REST takes', async () => {
    const task = tasks.addTask();
    const sha256 = tasks.setDiff(task.id, 'diff --git a/x b/x\n');
    await tasks.review(task.id, { verdict: 'approve', sha256 }, cliActor);
    const outcome = await caller().tasks.push({ taskId: task.id, remote: 'origin', squash: true });
    expect(outcome).toMatchObject({
      remote: 'origin',
      branch: `shadowbox/${task.id}`,
      pullRequest: null,
    });
    expect(tasks.pushes.map((p) => p.input)).toEqual([{ remote: 'origin', squash: true }]);
  });

  it('refuses a branch name git would read as an option, pushing nothing', async () => {
    const task = tasks.addTask();
    const error = await caller()
      .tasks.push({ taskId: task.id, remote: 'origin', branch: '--force' })
      .then(
        () => null,
        (thrown: unknown) => thrown,
      );
    expect(error).toBeInstanceOf(TRPCError);
    expect((error as TRPCError).code).toBe('BAD_REQUEST');
    expect(tasks.pushes).toEqual([]);
  });
});
