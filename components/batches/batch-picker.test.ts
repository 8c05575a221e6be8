import { describe, expect, it } from 'vitest';
import {
  groupByRepository,
  maxMembers,
  selectionProblem,
  toggleTask,
  type PickableTask,
} from './batch-picker';

const git = (id: string, url: string): PickableTask => ({
  id,
  title: `fix ${id}`,
  source: { kind: 'git', url, ref: null },
  owner: 'alice',
  updatedAt: '2026-12-06T10:00:00.000Z',
});
const app = 'https://git.example/team/app.git';
const lib = 'https://git.example/team/lib.git';
const tasks = [git('t1', lib), git('t2', app), git('t3', app), git('t4', lib)];

describe('groupByRepository', () => {
  it('groups tasks by Git URL, and uploads by archive name, in the list order', () => {
    const archive: PickableTask = { ...git('t5', app), source: { kind: 'archive', name: 'x.zip' } };
    const groups = groupByRepository([...tasks, archive]);
    expect(groups.map((g) => [g.kind, g.label, g.tasks.map((t) => t.id)])).toEqual([
      ['archive', 'x.zip', ['t5']],
      ['git', app, ['t2', 't3']],
      ['git', lib, ['t1', 't4']],
    ]);
  });
});

describe('toggleTask', () => {
  it('keeps the order in which tasks were checked', () => {
    let selection = toggleTask([], 't3');
    selection = toggleTask(selection, 't2');
    selection = toggleTask(selection, 't4');
    expect(selection).toEqual(['t3', 't2', 't4']);
    expect(toggleTask(selection, 't2')).toEqual(['t3', 't4']);
  });
});

describe('selectionProblem', () => {
  it('asks for 2 to 8 tasks', () => {
    expect(selectionProblem([], tasks)).toBe('Pick 2 to 8 approved tasks of one repository.');
    expect(selectionProblem(['t2'], tasks)).toBe('Pick at least 1 more: a batch has 2 to 8 tasks.');
    const many = Array.from({ length: maxMembers + 1 }, (_, i) => `a${i}`);
    const manyTasks = many.map((id) => git(id, app));
    expect(selectionProblem(many, manyTasks)).toBe('A batch has at most 8 tasks; 9 are picked.');
    expect(selectionProblem(many.slice(0, maxMembers), manyTasks)).toBeNull();
  });

  it('takes tasks of one repository only', () => {
    expect(selectionProblem(['t2', 't3'], tasks)).toBeNull();
    expect(selectionProblem(['t2', 't1'], tasks)).toBe(
      'The picked tasks come from 2 repositories; a batch takes tasks of one.',
    );
  });

  it('takes uploads of one archive, not an archive with a Git URL', () => {
    const upload = (id: string): PickableTask => ({
      ...git(id, app),
      source: { kind: 'archive', name: 'calc.tar.gz' },
    });
    const all = [...tasks, upload('u1'), upload('u2')];
    expect(selectionProblem(['u1', 'u2'], all)).toBeNull();
    expect(selectionProblem(['u1', 't2'], all)).toBe(
      'The picked tasks come from 2 repositories; a batch takes tasks of one.',
    );
  });

  it('notices a picked task that left the list', () => {
    expect(selectionProblem(['t2', 'gone'], tasks)).toBe(
      'A picked task is no longer in the list of approved tasks.',
    );
  });
});
