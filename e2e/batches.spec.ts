import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Hypothesis } from '../server/engine/shadow';
import { editOf, packProject } from '../server/test-support/projects';
import {
  createArchiveTask,
  describeResponse,
  hasStatus,
  review,
  submitHypotheses,
  waitForTask,
} from '../server/test-support/rest-client';
import { expect, test } from './support/fixtures';
import { docsScreenshot } from './support/task-page';

/**
 * An integration batch in the browser (#25 item 5): three approved uploads of one project, two of
 * which fix the same line differently. The preflight stops the batch with the conflicting pair
 * and its hunk, nothing runs; once the reviewer drops one, the other two are tested together,
 * pass, and their combined diff is approved on its SHA-256 from the page.
 */
test('preflight a batch, drop the conflicting member, approve the combined diff', async ({
  page,
  agent,
  reviewer,
  pytestCalc,
}) => {
  const word = randomUUID().slice(0, 6);
  const titles = [`Mean A ${word}`, `Mean B ${word}`, `Mean C ${word}`] as const;
  const fixed = editOf(pytestCalc.hypotheses.right, pytestCalc.buggyFile);
  const hypotheses: Hypothesis[] = [
    pytestCalc.hypotheses.right,
    {
      name: 'float-division',
      edits: [
        {
          path: pytestCalc.buggyFile,
          content: fixed.replace('sum(values) / len(values)', 'sum(values) / float(len(values))'),
        },
      ],
      delete: [],
    },
    {
      name: 'fix-and-note',
      edits: [
        { path: pytestCalc.buggyFile, content: fixed },
        { path: 'NOTES.md', content: `# Notes ${word}\n\nmean() divides as floats.\n` },
      ],
      delete: [],
    },
  ];
  const archive = await packProject(pytestCalc);
  try {
    // Three approved tasks of the same upload, one hypothesis each.
    const ids: string[] = [];
    for (const title of titles) {
      ids.push(
        await createArchiveTask(agent, archive, {
          testCommand: pytestCalc.testCommand,
          maxIterations: 1,
          hypothesesPerIteration: 1,
          title,
        }),
      );
    }
    for (const [index, id] of ids.entries()) {
      await waitForTask(agent, id, hasStatus('awaiting_hypotheses'), 180_000);
      const submitted = await submitHypotheses(agent, id, [hypotheses[index] as Hypothesis]);
      expect(submitted.status, describeResponse(submitted)).toBe(202);
    }
    for (const id of ids) {
      const ready = await waitForTask(agent, id, hasStatus('awaiting_review'), 240_000);
      const approved = await review(reviewer, id, 'approve', ready.diffSha256 ?? '');
      expect(approved.status, describeResponse(approved)).toBe(200);
    }

    // 1. Picked in order on the batches page.
    await page.goto('/coding/batches');
    const start = page.getByRole('button', { name: 'Start batch', exact: true });
    await expect(start).toBeDisabled();
    for (const title of titles) await page.getByLabel(title, { exact: true }).check();
    await expect(start).toBeEnabled();
    await start.click();
    await page.waitForURL(/\/coding\/batches\/[a-z0-9]+$/);
    const status = page.getByRole('status', { name: 'Batch status' });

    // 2. The preflight: the pair, its file and hunk; nothing runs.
    await expect(status).toHaveText('conflicts');
    await expect(page.getByRole('heading', { name: 'Conflicts' })).toBeVisible();
    const pair = `#1 ${titles[0]} and #2 ${titles[1]}: 1 conflicting file`;
    await page.getByRole('button', { name: pair, exact: true }).click();
    await expect(
      page.getByRole('heading', { name: pytestCalc.buggyFile, exact: true }),
    ).toBeVisible();
    await expect(page.getByText('sum(values) / float(len(values))').first()).toBeVisible();
    await expect(page.getByText('None: nothing runs while members conflict.')).toBeVisible();

    // 3. Dropped: the other two are tested together and pass.
    const members = page.getByRole('table', { name: 'Members, in the order they are applied' });
    await members
      .getByRole('row')
      .filter({ hasText: titles[1] })
      .getByRole('button', { name: 'Drop' })
      .click();
    await expect(status).toHaveText('passed', { timeout: 240_000 });
    await expect(page.getByRole('heading', { name: 'Conflicts' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: /^Trial 1: .* passes$/ })).toBeVisible();

    // 4. The combined diff, approved on the hash shown; an upload's batch is not pushed.
    const combined = page.getByRole('region', { name: 'Combined diff' });
    await expect(combined.getByRole('heading', { name: 'NOTES.md', exact: true })).toBeVisible();
    await expect(combined.getByText('sum(values) / float(len(values))')).toHaveCount(0);
    const sha = await page.getByLabel('Combined diff SHA-256').textContent();
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    await docsScreenshot(page, 'batch.png');
    await combined.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(status).toHaveText('approved');
    await expect(page.getByText(`Approved the combined diff ${sha ?? ''}.`)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Push' })).toHaveCount(0);
    const batchId = new URL(page.url()).pathname.split('/').pop() ?? '';
    const read = await reviewer.get(`/api/v1/batches/${batchId}`);
    expect(read.body).toMatchObject({
      status: 'approved',
      sourceKind: 'archive',
      review: { verdict: 'approve', sha256: sha },
    });
  } finally {
    await rm(archive.dir, { recursive: true, force: true });
  }
});
