import { slowHypothesis } from '../server/test-support/projects';
import {
  describeResponse,
  hasStatus,
  readTaskEvents,
  submitHypotheses,
  waitForTask,
} from '../server/test-support/rest-client';
import { expect, test } from './support/fixtures';
import { expectStatus, hypothesesTable, hypothesisCell, hypothesisRow } from './support/task-page';

test('a reload in the middle of an iteration continues the timeline without gaps or repeats', async ({
  page,
  agent,
  pytestCalc,
  createPytestTask,
}) => {
  const { hypothesis: slow } = slowHypothesis(pytestCalc, 15);
  const id = await createPytestTask({ maxIterations: 1, hypothesesPerIteration: 1 });
  await waitForTask(agent, id, hasStatus('awaiting_hypotheses'), 180_000);

  await page.goto(`/coding/${id}`);
  await expectStatus(page, 'awaiting_hypotheses');
  const submitted = await submitHypotheses(agent, id, [slow]);
  expect(submitted.status, describeResponse(submitted)).toBe(202);

  // The slow hypothesis is running (it sleeps about 15 s before its tests): reload now.
  await expectStatus(page, 'iterating', 60_000);
  await expect(await hypothesisCell(page, slow.name, 'Result')).toHaveText('running', {
    timeout: 60_000,
  });
  const timeline = page.getByRole('region', { name: 'Timeline', exact: true });
  const stepsBefore = await timeline.getByRole('heading', { level: 3 }).allInnerTexts();
  await page.reload();

  // After the reload the page rebuilds everything so far, then follows the rest live.
  await expectStatus(page, 'awaiting_review', 120_000);
  await expect(await hypothesisCell(page, slow.name, 'Rank')).toHaveText('1');
  await expect(await hypothesisCell(page, slow.name, 'Failed')).toHaveText('0');

  const steps = (await timeline.getByRole('heading', { level: 3 }).allInnerTexts()).map((text) =>
    text.trim(),
  );
  const titles = steps.map((text) => text.split(/\s+/).slice(0, 2).join(' '));
  // Complete: every step seen before the reload is still there, and the ones after it too.
  for (const before of stepsBefore) {
    const title = before.trim().split(/\s+/).slice(0, 2).join(' ');
    expect(titles, `step "${before}" after the reload`).toContain(title);
  }
  for (const title of ['Intake', 'Worktree', 'Baseline', 'Iteration 1', 'Review']) {
    expect(
      steps.filter((text) => text === title || text.startsWith(`${title} `)),
      `timeline steps: ${JSON.stringify(steps)}`,
    ).toHaveLength(1);
  }
  // No repeats: one row for the hypothesis, one row group for the iteration.
  await expect(hypothesisRow(page, slow.name)).toHaveCount(1);
  await expect(
    hypothesesTable(page).getByRole('rowheader', { name: /^Iteration 1\b/ }),
  ).toHaveCount(1);
  await expect(page.getByText(/\b3 passed, 1 failed\b/)).toHaveCount(1);

  // The server's log agrees: one start per iteration and per hypothesis, seqs 1..N in order.
  const events = await readTaskEvents(agent, id, {
    until: (read) =>
      read.some((event) => event.event === 'review.ready' || hasType(event.data, 'review.ready')),
    timeoutMs: 30_000,
  });
  const ids = events.map((event) => event.id);
  expect(ids).toEqual(ids.map((_, index) => index + 1));
  expect(events.filter((event) => hasType(event.data, 'iteration.started'))).toHaveLength(1);
});

function hasType(data: unknown, type: string): boolean {
  return typeof data === 'object' && data !== null && 'type' in data && data.type === type;
}
