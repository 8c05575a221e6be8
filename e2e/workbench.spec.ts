import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Hypothesis } from '../server/engine/shadow';
import { editOf, packProject } from '../server/test-support/projects';
import {
  describeResponse,
  getTask,
  hasStatus,
  submitHypotheses,
  waitForTask,
} from '../server/test-support/rest-client';
import { expect, test } from './support/fixtures';
import { storageStateFile } from './support/state';
import {
  docsClipScreenshot,
  docsScreenshot,
  expectStatus,
  hypothesisCell,
  openTab,
  shownDiffHash,
  taskListRow,
} from './support/task-page';

/**
 * The reviewer's workbench (#24): a task made with a title and a problem, three hypotheses, the
 * matrix of the tests whose status differs, an interdiff, a runner-up promoted with a reason (its
 * own diff and SHA-256 up for review, the promotion in the audit log), and the list filtered by
 * status and searched by a word of the title, the filters kept across a reload.
 */
test('compare three hypotheses test by test, read an interdiff, promote the runner-up', async ({
  page,
  browser,
  shadowbox,
  agent,
  pytestCalc,
}) => {
  const word = `quibble${randomUUID().slice(0, 6)}`;
  const title = `Mean rounds down (${word})`;
  const archive = await packProject(pytestCalc);
  try {
    // 1. A task with a title and a problem, made on its own page.
    await page.goto('/coding/new');
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page
      .getByLabel('Problem (Markdown)', { exact: true })
      .fill('`mean([1, 2])` returns 1 instead of 1.5.');
    await page.getByLabel('Archive', { exact: true }).setInputFiles(archive.file);
    await page.getByLabel('Test command', { exact: true }).fill('python3 -m pytest -q');
    await page.getByLabel('Max iterations', { exact: true }).fill('1');
    await page.getByLabel('Hypotheses per iteration', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Create task', exact: true }).click();
    await page.waitForURL(/\/coding\/(?!new$)[^/?#]+$/);
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await waitForTask(agent, id, hasStatus('awaiting_hypotheses'), 180_000);

    // 2. Three hypotheses: the fixture's fix, the same fix written otherwise, and one that fixes
    // the mean but breaks add.
    const right = pytestCalc.hypotheses.right;
    const fixedSource = editOf(right, pytestCalc.buggyFile);
    const other: Hypothesis = {
      name: 'float-division',
      edits: [
        {
          path: pytestCalc.buggyFile,
          content: fixedSource.replace(
            'sum(values) / len(values)',
            'sum(values) / float(len(values))',
          ),
        },
      ],
      delete: [],
    };
    const breaksAdd: Hypothesis = {
      name: 'mean-breaks-add',
      edits: [
        {
          path: pytestCalc.buggyFile,
          content: fixedSource.replace('return a + b', 'return a - b'),
        },
      ],
      delete: [],
    };
    const submitted = await submitHypotheses(agent, id, [right, other, breaksAdd]);
    expect(submitted.status, describeResponse(submitted)).toBe(202);
    const ready = await waitForTask(agent, id, hasStatus('awaiting_review'), 240_000);
    await page.reload();
    await expectStatus(page, 'awaiting_review');

    // 3. The matrix: exactly the tests whose status differs, with the right cells.
    await openTab(page, 'Compare');
    const matrix = page.getByRole('grid', { name: 'Tests whose status differs, by column' });
    await expect(page.getByText('2 tests differ')).toBeVisible();
    const cell = (test: string, column: string, status: string) =>
      matrix.getByRole('button', {
        name: `test_calc.py::${test} in ${column}: ${status}`,
        exact: true,
      });
    await expect(cell('test_mean', 'baseline', 'fail')).toBeVisible();
    await expect(cell('test_add', 'baseline', 'pass')).toBeVisible();
    for (const name of [right.name, other.name]) {
      await expect(cell('test_mean', name, 'pass')).toBeVisible();
      await expect(cell('test_add', name, 'pass')).toBeVisible();
    }
    await expect(cell('test_mean', breaksAdd.name, 'pass')).toBeVisible();
    await expect(cell('test_add', breaksAdd.name, 'fail')).toBeVisible();
    await expect(matrix.getByRole('rowheader')).toHaveCount(2);
    await docsClipScreenshot(
      page,
      [page.getByRole('region', { name: 'Compare hypotheses' })],
      'compare.png',
    );
    await page.getByRole('button', { name: 'Broken only', exact: true }).click();
    await expect(matrix.getByRole('rowheader')).toHaveCount(1);
    await expect(cell('test_add', breaksAdd.name, 'fail')).toBeVisible();

    // 4. The interdiff of the two passing fixes.
    await page.getByLabel('Compare', { exact: true }).selectOption(`hypothesis:1/${right.name}`);
    await page.getByLabel('with', { exact: true }).selectOption(`hypothesis:1/${other.name}`);
    await expect(page.getByText('sum(values) / float(len(values))').first()).toBeVisible();

    // 5. Promote the runner-up (the passing fix that was not ranked first), with a reason.
    await openTab(page, 'Conversation');
    const first = (await (await hypothesisCell(page, right.name, 'Rank')).innerText()).trim();
    const runnerUp = first === '1' ? other.name : right.name;
    const winner = first === '1' ? right.name : other.name;
    expect(ready.iterations[0]?.winner).toBe(winner);
    const before = ready.diffSha256;
    await page.getByRole('button', { name: `Promote ${runnerUp}`, exact: true }).click();
    const form = page.getByRole('form', { name: `Promote ${runnerUp} for review` });
    await form.getByLabel('Reason', { exact: true }).fill('Reads as the team writes divisions.');
    await form.getByRole('button', { name: 'Promote for review', exact: true }).click();
    await expect(page.getByText(/passed over: Reads as the team writes divisions\./)).toBeVisible();
    const promoted = await waitForTask(
      agent,
      id,
      (task) => task.status === 'awaiting_review' && task.diffSha256 !== before,
      60_000,
    );
    expect(promoted.iterations[0]?.winner).toBe(runnerUp);
    if ((await shownDiffHash(page)) !== promoted.diffSha256) {
      // The page still shows the diff it loaded: it offers the new one.
      await page.getByRole('button', { name: 'Show the new diff', exact: true }).click();
    }
    // Waited for: right after the click the old hash is still on the page for a moment.
    await expect(page.getByLabel('Diff SHA-256', { exact: true })).toHaveText(
      promoted.diffSha256 ?? '',
    );
    const promotedLine =
      runnerUp === other.name ? 'float(len(values))' : 'sum(values) / len(values)';
    await expect(page.getByText(promotedLine).first()).toBeVisible();
    expect((await getTask(agent, id)).approvedDiffSha256).toBeNull();

    // 6. The audit log has the promotion, by the reviewer, with the reason.
    const adminContext = await browser.newContext({
      baseURL: shadowbox.url,
      storageState: storageStateFile(shadowbox, 'admin'),
    });
    try {
      const admin = await adminContext.newPage();
      await admin.goto(`/coding/audit?taskId=${encodeURIComponent(id)}`);
      const audit = admin.getByRole('table', { name: /Audit log/ });
      await expect(audit.getByRole('row').filter({ hasText: 'task.promote' })).toHaveCount(1);
    } finally {
      await adminContext.close();
    }

    // 7. The list: filtered by status, searched by a word of the title; a reload keeps both.
    await page.goto('/coding');
    await page.getByLabel('Status', { exact: true }).selectOption('awaiting_review');
    await page.getByLabel('Search', { exact: true }).fill(word);
    await expect(page).toHaveURL(new RegExp(`q=${word}`));
    await expect(page).toHaveURL(/status=awaiting_review/);
    await expect(taskListRow(page, id)).toHaveCount(1);
    await expect(page.getByRole('row')).toHaveCount(2);
    await page.reload();
    await expect(page.getByLabel('Search', { exact: true })).toHaveValue(word);
    await expect(page.getByLabel('Status', { exact: true })).toHaveValue('awaiting_review');
    await expect(taskListRow(page, id)).toHaveCount(1);
    await docsScreenshot(page, 'list.png');
  } finally {
    await rm(archive.dir, { recursive: true, force: true });
  }
});
