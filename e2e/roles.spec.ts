import {
  describeResponse,
  hasStatus,
  submitHypotheses,
  waitForTask,
} from '../server/test-support/rest-client';
import { expect, test } from './support/fixtures';
import { accountBar, people } from './support/people';
import { storageStateFile } from './support/state';
import { expectStatus, shownDiffHash, taskListRow, taskStatus } from './support/task-page';

test.use({ signedInAs: 'author' });

test('an author cannot approve; an admin approves and reopens, and the audit log names them', async ({
  page,
  browser,
  shadowbox,
  authorAgent,
  pytestCalc,
  createPytestTask,
}) => {
  const { author, admin } = people;
  // The author's own task, driven by the author's token, up to review.
  const id = await createPytestTask({
    client: authorAgent,
    maxIterations: 1,
    hypothesesPerIteration: 1,
  });
  await waitForTask(authorAgent, id, hasStatus('awaiting_hypotheses'), 180_000);
  const submitted = await submitHypotheses(authorAgent, id, [pytestCalc.hypotheses.right]);
  expect(submitted.status, describeResponse(submitted)).toBe(202);
  const ready = await waitForTask(authorAgent, id, hasStatus('awaiting_review'), 180_000);

  // The author sees it under review, as theirs, with no verdict to give.
  await page.goto(`/coding/${id}`);
  await expectStatus(page, 'awaiting_review');
  expect(await shownDiffHash(page)).toBe(ready.diffSha256);
  await expect(page.getByText('Only reviewers can approve or reject')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Reject', exact: true })).toHaveCount(0);
  const facts = page.locator('.facts');
  await expect(facts).toContainText(`Owner${author.username}`);
  // The list names the owner too.
  await page.goto('/coding');
  const row = taskListRow(page, id);
  await expect(row).toContainText(author.username);
  // An author's tokens cannot review, and the audit log is not theirs.
  await page.goto('/coding/tokens');
  await expect(page.getByLabel('agent', { exact: true })).toBeVisible();
  await expect(page.getByLabel('reviewer', { exact: true })).toHaveCount(0);
  await page.goto('/coding/audit');
  await expect(page.getByRole('alert').filter({ hasText: 'Forbidden (403)' })).toBeVisible();

  // An admin approves it: the page says who, and offers to reopen it.
  const adminContext = await browser.newContext({
    baseURL: shadowbox.url,
    storageState: storageStateFile(shadowbox, 'admin'),
  });
  try {
    const adminPage = await adminContext.newPage();
    await adminPage.goto(`/coding/${id}`);
    await expectStatus(adminPage, 'awaiting_review');
    await adminPage.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(taskStatus(adminPage)).toHaveText('approved');
    const decision = adminPage.locator('.decision');
    await expect(decision).toContainText(`approved by ${admin.username}`);
    await expect(decision.locator('abbr')).toHaveAttribute('title', ready.diffSha256 ?? '');
    await expect(adminPage.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);

    // The author's page shows the same verdict after a reload, and no Reopen.
    await page.goto(`/coding/${id}`);
    await expectStatus(page, 'approved');
    await expect(page.locator('.decision')).toContainText(`approved by ${admin.username}`);
    await expect(page.getByRole('button', { name: 'Reopen', exact: true })).toHaveCount(0);

    // Reopen: back under review, the approval withdrawn.
    await adminPage.getByRole('button', { name: 'Reopen', exact: true }).click();
    await expect(taskStatus(adminPage)).toHaveText('awaiting_review');
    await expect(adminPage.getByRole('button', { name: 'Approve', exact: true })).toBeVisible();
    await expect(adminPage.locator('.decision')).toContainText('Previous verdict');

    // The audit log, filtered by the task, then by the person too; newest first.
    await adminPage.goto('/coding/audit');
    await adminPage.getByLabel('Task id', { exact: true }).fill(id);
    await adminPage.getByRole('button', { name: 'Filter', exact: true }).click();
    await adminPage.waitForURL(/\/coding\/audit\?taskId=/);
    const audit = adminPage.getByRole('table', { name: /Audit log/ });
    const actions = await audit.locator('tbody tr td:nth-child(3)').allInnerTexts();
    expect(actions.slice(0, 2)).toEqual(['task.reopen', 'task.approve']);
    expect(actions).toContain('hypotheses.submit');
    expect(actions.at(-1)).toBe('task.create');
    await expect(audit.getByRole('row').filter({ hasText: 'task.create' })).toContainText(
      author.username,
    );
    await adminPage.getByLabel('Person', { exact: true }).fill(admin.username);
    await adminPage.getByRole('button', { name: 'Filter', exact: true }).click();
    await adminPage.waitForURL(/person=e2e-admin/);
    await expect(audit.locator('tbody tr td:nth-child(3)')).toHaveText([
      'task.reopen',
      'task.approve',
    ]);
    await expect(accountBar(adminPage)).toContainText(`Signed in as ${admin.username} (admin)`);
  } finally {
    await adminContext.close();
  }
});

test.describe('tokens', () => {
  test.use({ signedInAs: 'reviewer' });

  test('a reviewer makes a token, sees it once, and revokes it', async ({ page }) => {
    await page.goto('/coding/tokens');
    await page.getByLabel('Token name', { exact: true }).fill('e2e-page-token');
    await page.getByLabel('reviewer', { exact: true }).check();
    await page.getByRole('button', { name: 'Create token', exact: true }).click();
    // The secret is an <output> (role status) named "New token" (the form's region shares the name).
    const secret = page.getByRole('status', { name: 'New token', exact: true });
    await expect(secret).toHaveText(/^sbx_\S+$/);
    const row = page.getByRole('row').filter({
      has: page.getByRole('rowheader', { name: 'e2e-page-token', exact: true }),
    });
    await expect(row).toContainText('agent, reviewer');
    await expect(row).toContainText('active');

    // Shown once: not after a reload.
    await page.reload();
    await expect(secret).toHaveCount(0);
    await row.getByRole('button', { name: 'Revoke e2e-page-token', exact: true }).click();
    await expect(row).toContainText('revoked');
    await expect(row.getByRole('button')).toHaveCount(0);
  });
});
