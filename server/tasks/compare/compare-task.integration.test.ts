import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '../../auth/actor';
import { userIn } from '../../test-support/actors';
import {
  createSqliteDatabase,
  openMigratedDatabase,
  type MigratedDatabase,
} from '../../test-support/scratch-databases';
import { compareCell } from './compare-cell';
import { compareTask } from './compare-task';
import { seedCompareTask } from './test-support/seed-compare';

/**
 * The matrix on a real database, from rows the task loop's store wrote: every hypothesis run
 * keeps its tests, the columns say how their cells are known, runs recorded before that are
 * derived where they can be, and the task's access rules hold.
 */
describe('compareTask', () => {
  let database: MigratedDatabase;
  let taskId: string;

  beforeAll(async () => {
    database = await openMigratedDatabase(createSqliteDatabase);
    taskId = await seedCompareTask(database.db, {
      baseline: [
        { id: 't::a', status: 'failed' },
        { id: 't::b', status: 'passed' },
        { id: 't::c', status: 'passed' },
        { id: 't::d', status: 'skipped' },
      ],
      iterations: [
        [
          {
            name: 'fix-a',
            run: {
              cases: [
                { id: 't::a', status: 'passed' },
                { id: 't::b', status: 'passed' },
                { id: 't::c', status: 'passed' },
                { id: 't::d', status: 'skipped' },
              ],
            },
          },
          {
            name: 'breaks-b',
            author: 'bob',
            run: {
              cases: [
                { id: 't::a', status: 'failed' },
                { id: 't::b', status: 'failed' },
                { id: 't::c', status: 'passed' },
              ],
            },
          },
          { name: 'no-build', run: { buildFailed: true } },
          { name: 'counts', run: { totals: { passed: 3, failed: 0, skipped: 1 } } },
        ],
        [
          {
            name: 'second',
            run: {
              cases: [
                { id: 't::a', status: 'passed' },
                { id: 't::e', status: 'failed', output: ['Expected: 4', 'Received: 3'] },
              ],
            },
          },
        ],
      ],
    });
  }, 120_000);

  afterAll(async () => {
    await database.close();
  });

  it('keeps the tests of every hypothesis run, not only the winner', async () => {
    const run = await database.db.run.findFirstOrThrow({
      where: { taskId, hypothesis: { name: 'breaks-b' } },
      select: { cases: true },
    });
    expect(run.cases).toHaveLength(3);
  });

  it('compares one iteration: the baseline first, the tests that differ, how each column is known', async () => {
    const matrix = await compareTask(database, { taskId, iteration: 1, actor: cliActor });
    expect(matrix.iterations).toBe(2);
    expect(matrix.columns.map((c) => [c.name, c.evidence, c.winner])).toEqual([
      ['baseline', 'by test', false],
      ['fix-a', 'by test', true],
      ['breaks-b', 'by test', false],
      ['no-build', 'not run', false],
      ['counts', 'totals only', false],
    ]);
    expect(matrix.columns[2]).toMatchObject({ author: 'bob', fixed: 0, broken: 1, basis: 'id' });
    expect(matrix.columns[3]?.note).toBe('the build failed: no test ran');
    expect(matrix.rows).toEqual([
      {
        test: 't::a',
        cells: ['fail', 'pass', 'fail', 'not run', 'unknown'],
        broken: false,
        fixed: true,
      },
      {
        test: 't::b',
        cells: ['pass', 'pass', 'fail', 'not run', 'unknown'],
        broken: true,
        fixed: false,
      },
      {
        test: 't::d',
        cells: ['skipped', 'skipped', 'missing', 'not run', 'unknown'],
        broken: false,
        fixed: false,
      },
    ]);
  });

  it('compares the whole task: every hypothesis of every iteration', async () => {
    const matrix = await compareTask(database, { taskId, iteration: undefined, actor: cliActor });
    expect(matrix.iteration).toBeNull();
    expect(matrix.columns.map((c) => `${c.iteration ?? 0}:${c.name}`)).toEqual([
      '0:baseline',
      '1:fix-a',
      '1:breaks-b',
      '1:no-build',
      '1:counts',
      '2:second',
    ]);
    // `second` names one test: the others are missing from it.
    expect(matrix.rows.find((r) => r.test === 't::c')?.cells.at(-1)).toBe('missing');
  });

  it('derives a run recorded before every run kept its tests, from the baseline and its delta', async () => {
    const { id } = await database.db.run.findFirstOrThrow({
      where: { taskId, hypothesis: { name: 'breaks-b' } },
    });
    await database.db.$executeRaw`UPDATE "Run" SET "cases" = NULL WHERE "id" = ${id}`;
    const matrix = await compareTask(database, { taskId, iteration: 1, actor: cliActor });
    expect(matrix.columns[2]?.evidence).toBe('derived');
    // The delta names t::b broken and t::a still failing; of t::d, skipped at the baseline, it
    // says nothing, so that cell is unknown and no longer makes a row.
    expect(matrix.rows.map((r) => [r.test, r.cells[2]])).toEqual([
      ['t::a', 'fail'],
      ['t::b', 'fail'],
    ]);
  });

  it('answers NOT_FOUND naming an iteration the task does not have', async () => {
    await expect(
      compareTask(database, { taskId, iteration: 7, actor: cliActor }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: `task ${taskId} has no iteration 7` });
  });

  it('says which hypothesis a reviewer promoted and which ranked winner was passed over', async () => {
    const { id } = await database.db.iteration.findFirstOrThrow({ where: { taskId, index: 1 } });
    await database.db.iteration.update({
      where: { id },
      data: { promotedBy: 'rita', promotionReason: 'smaller change', passedOver: 'fix-a' },
    });
    await database.db.hypothesis.updateMany({
      where: { iterationId: id, name: 'fix-a' },
      data: { verdict: 'passed' },
    });
    await database.db.hypothesis.updateMany({
      where: { iterationId: id, name: 'breaks-b' },
      data: { verdict: 'winner' },
    });
    const matrix = await compareTask(database, { taskId, iteration: 1, actor: cliActor });
    expect(matrix.columns.slice(1, 3).map((c) => [c.name, c.winner, c.note])).toEqual([
      ['fix-a', false, 'ranked first, passed over by rita: smaller change'],
      ['breaks-b', true, expect.stringMatching(/^promoted over fix-a by rita: smaller change/)],
    ]);
  });

  it("hides another person's task as NOT_FOUND", async () => {
    const mallory = await userIn(database.db, 'mallory', 'author');
    await expect(
      compareTask(database, { taskId, iteration: undefined, actor: mallory }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it("gives a cell's output lines from the run's kept output, and refuses another task's run", async () => {
    const matrix = await compareTask(database, { taskId, iteration: 1, actor: cliActor });
    const runId = matrix.columns[0]?.runId ?? '';
    const cell = await compareCell(database, { taskId, runId, test: 't::a', actor: cliActor });
    expect(cell.lines).toEqual(['FAILED t::a - AssertionError']);
    const whole = await compareTask(database, { taskId, iteration: undefined, actor: cliActor });
    const own = await compareCell(database, {
      taskId,
      runId: whole.columns.at(-1)?.runId ?? '',
      test: 't::e',
      actor: cliActor,
    });
    expect(own).toMatchObject({ lines: ['Expected: 4', 'Received: 3'], truncated: false });
    expect(own.source).toMatch(/report/);
    await expect(
      compareCell(database, { taskId, runId: 'nope', test: 't::a', actor: cliActor }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
