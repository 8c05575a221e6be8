import { editOf } from '../server/test-support/projects';
import {
  describeResponse,
  getTask,
  submitHypotheses,
  waitForTask,
} from '../server/test-support/rest-client';
import { expect, test } from './support/fixtures';
import { expectStatus, shownDiffHash, taskStatus } from './support/task-page';

test('approving a diff that changed since the page loaded is refused, and the new diff is shown', async ({
  page,
  agent,
  pytestCalc,
  createPytestTask,
}) => {
  const { right } = pytestCalc.hypotheses;
  const id = await createPytestTask({ maxIterations: 2, hypothesesPerIteration: 1 });
  await waitForTask(agent, id, (task) => task.status === 'awaiting_hypotheses', 180_000);
  const first = await submitHypotheses(agent, id, [right]);
  expect(first.status, describeResponse(first)).toBe(202);
  const ready = await waitForTask(agent, id, (task) => task.status === 'awaiting_review', 180_000);
  const seen = ready.diffSha256 ?? '';
  expect(seen).toMatch(/^[0-9a-f]{64}$/);

  // The reviewer opens the page on the first diff.
  await page.goto(`/coding/${id}`);
  await expectStatus(page, 'awaiting_review');
  expect(await shownDiffHash(page)).toBe(seen);

  // Behind the page's back, an agent submits another passing fix: the task reopens, iteration 2
  // commits it, and the diff under review becomes a different one.
  const commented = {
    name: 'true-division-commented',
    edits: [
      {
        path: pytestCalc.buggyFile,
        content: `${editOf(right, pytestCalc.buggyFile)}\n# Division is true division in Python 3.\n`,
      },
    ],
    delete: [],
  };
  const second = await submitHypotheses(agent, id, [commented]);
  expect(second.status, describeResponse(second)).toBe(202);
  const changed = await waitForTask(
    agent,
    id,
    (task) =>
      task.status === 'awaiting_review' && task.diffSha256 !== null && task.diffSha256 !== seen,
    180_000,
  );
  const current = changed.diffSha256 ?? '';

  // A page that follows the stream may already show the new hash. The reviewer's click must still
  // carry the hash they reviewed, so the request is pinned to it (a no-op when the page still
  // shows the old one); the refusal itself comes from the server's real, changed diff.
  const shownBeforeClick = await shownDiffHash(page);
  const path =
    shownBeforeClick === seen
      ? 'the page still showed the first hash: the click sent it as it was'
      : 'the page had already shown the new hash live: the review request was pinned to the first hash';
  test.info().annotations.push({ type: 'stale diff', description: path });
  console.log(`stale diff: ${path}`);
  await page.route('**/api/trpc/**', async (route) => {
    const request = route.request();
    const body = request.postData();
    // Approve sends the review (`reviews.submit`); Reject still goes through `tasks.review`.
    const verdict = /\b(?:reviews\.submit|tasks\.review)\b/.test(request.url());
    if (request.method() === 'POST' && verdict && body !== null) {
      await route.continue({ postData: body.replaceAll(current, seen) });
    } else {
      await route.fallback();
    }
  });
  await expectStatus(page, 'awaiting_review');
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByText(/the diff changed since you loaded it/).first()).toBeVisible();
  await expect(page.getByLabel('Diff SHA-256', { exact: true })).toContainText(current);
  await expect(taskStatus(page)).toHaveText('awaiting_review');
  const still = await getTask(agent, id);
  expect(still.status).toBe('awaiting_review');
  expect(still.approvedDiffSha256).toBeNull();
  expect(still.diffSha256).toBe(current);

  // The reviewer approves what is shown now.
  await page.unroute('**/api/trpc/**');
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(taskStatus(page)).toHaveText('approved');
  expect((await getTask(agent, id)).approvedDiffSha256).toBe(current);
});
