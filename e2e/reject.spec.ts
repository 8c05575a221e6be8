import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { editOf } from '../server/test-support/projects';
import {
  describeResponse,
  hasStatus,
  submitHypotheses,
  waitForTask,
} from '../server/test-support/rest-client';
import { expect, test } from './support/fixtures';
import { people } from './support/people';
import {
  expectStatus,
  hypothesisRow,
  openTab,
  shownDiffHash,
  taskStatus,
} from './support/task-page';

test('reject rolls the worktree back to the original source', async ({
  page,
  agent,
  shadowbox,
  pytestCalc,
  createPytestTask,
}) => {
  const { right } = pytestCalc.hypotheses;
  const id = await createPytestTask({ maxIterations: 1, hypothesesPerIteration: 2 });
  await waitForTask(agent, id, hasStatus('awaiting_hypotheses'), 180_000);
  // The same fix twice (say, two samples of a model that agree): it runs once.
  const twin = { ...right, name: `twin-of-${right.name}` };
  const submitted = await submitHypotheses(agent, id, [right, twin]);
  expect(submitted.status, describeResponse(submitted)).toBe(202);
  const ready = await waitForTask(agent, id, hasStatus('awaiting_review'), 180_000);

  // The fix under review is checked out in the task's worktree.
  const worktreeFile = path.join(shadowbox.dataDir, 'worktrees', id, pytestCalc.buggyFile);
  const original = await readFile(path.join(pytestCalc.dir, pytestCalc.buggyFile), 'utf8');
  expect(await readFile(worktreeFile, 'utf8')).toBe(editOf(right, pytestCalc.buggyFile));

  await page.goto(`/coding/${id}`);
  await expectStatus(page, 'awaiting_review');
  expect(await shownDiffHash(page)).toBe(ready.diffSha256);
  await openTab(page, 'Conversation');
  await expect(hypothesisRow(page, twin.name)).toContainText(
    `same tree as ${right.name}: ran once`,
  );
  await expect(hypothesisRow(page, right.name)).not.toContainText('same tree as');

  await openTab(page, 'Files changed');
  await page.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(taskStatus(page)).toHaveText('rejected');
  // A verdict is final: no more buttons, and the page says who gave it.
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expect(page.locator('.decision')).toContainText(`rejected by ${people.reviewer.username}`);
  await waitForTask(agent, id, hasStatus('rejected'), 30_000);
  // The rollback follows the verdict: poll the file until it is the original again.
  await expect.poll(() => readFile(worktreeFile, 'utf8'), { timeout: 30_000 }).toBe(original);
});
