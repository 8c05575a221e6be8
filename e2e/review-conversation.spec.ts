import type { Page } from '@playwright/test';
import { editOf } from '../server/test-support/projects';
import {
  describeResponse,
  getTask,
  hasStatus,
  isRecord,
  submitHypotheses,
  waitForTask,
  type ApiClient,
} from '../server/test-support/rest-client';
import { expect, test } from './support/fixtures';
import { people } from './support/people';
import { storageStateFile } from './support/state';
import { docsClipScreenshot, expectStatus, shownDiffHash, taskStatus } from './support/task-page';

const minute = 60_000;

interface RestThread {
  readonly id: string;
  readonly status: string;
  readonly path: string;
  readonly side: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly lines: readonly string[];
  readonly comments: readonly { readonly author: string; readonly body: string }[];
}

/** `GET /api/v1/tasks/{id}/threads`, as an agent reads it. */
async function readThreads(agent: ApiClient, id: string): Promise<readonly RestThread[]> {
  const response = await agent.get(`/api/v1/tasks/${encodeURIComponent(id)}/threads`);
  expect(response.status, describeResponse(response)).toBe(200);
  if (!isRecord(response.body)) throw new Error(describeResponse(response));
  return response.body.threads as readonly RestThread[];
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const thread = (page: Page, place: string) =>
  page.getByRole('article', { name: `Thread on ${place}`, exact: true });

test('a review as a conversation: a comment on lines 3–5, changes requested, an agent answers, the thread moves, approval waits for it', async ({
  page,
  context,
  browser,
  shadowbox,
  agent,
  pytestCalc,
  createPytestTask,
}) => {
  const reviewer = people.reviewer.username;
  const right = editOf(pytestCalc.hypotheses.right, pytestCalc.buggyFile);
  // The right fix, plus a comment on line 2: the diff then shows lines 1–5 of calc.py too.
  const documented = right.replace('"""\n\n\ndef add', '"""\n# Calculator functions.\n\ndef add');
  expect(documented).not.toBe(right);
  const id = await createPytestTask({ maxIterations: 2, hypothesesPerIteration: 1 });
  await waitForTask(agent, id, hasStatus('awaiting_hypotheses'), 3 * minute);
  const first = await submitHypotheses(agent, id, [
    {
      name: 'true-division-documented',
      edits: [{ path: pytestCalc.buggyFile, content: documented }],
      delete: [],
    },
  ]);
  expect(first.status, describeResponse(first)).toBe(202);
  const ready = await waitForTask(agent, id, hasStatus('awaiting_review'), 3 * minute);

  // Whatever happens below, the page never throws, and server and browser render alike.
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /hydrat/i.test(message.text())) {
      pageErrors.push(message.text());
    }
  });

  // 1. The reviewer selects lines 3–5 (click 3, shift-click 5) and writes a comment (c opens the
  // box, Ctrl+Enter saves it): a draft, marked so.
  await page.goto(`/coding/${id}`);
  await expectStatus(page, 'awaiting_review');
  expect(await shownDiffHash(page)).toBe(ready.diffSha256);
  await page.getByRole('button', { name: 'Line 3 of calc.py', exact: true }).click();
  await page
    .getByRole('button', { name: 'Line 5 of calc.py', exact: true })
    .click({ modifiers: ['Shift'] });
  await expect(page.getByRole('status').filter({ hasText: 'Selected:' })).toHaveText(
    'Selected: calc.py lines 3–5',
  );
  await page.keyboard.press('c');
  const box = page.getByRole('textbox', { name: 'Comment on calc.py lines 3–5', exact: true });
  await expect(box).toBeFocused();
  const question = 'Why the blank line above `add`? Say what these functions take.';
  await box.fill(question);
  await box.press('Control+Enter');
  const draft = page.getByRole('article', {
    name: 'Draft comment on calc.py lines 3–5',
    exact: true,
  });
  await expect(draft).toContainText('Draft');
  await expect(draft.locator('code')).toHaveText('add');

  // 2. It is stored on the server: a reload shows it again, and so does a second tab.
  await page.reload();
  await expect(draft).toContainText('Why the blank line above');
  const secondTab = await context.newPage();
  await secondTab.goto(`/coding/${id}`);
  await expect(
    secondTab.getByRole('article', { name: 'Draft comment on calc.py lines 3–5', exact: true }),
  ).toContainText('Why the blank line above');
  await secondTab.close();
  await expect(page.getByText('1 draft comment will be sent with your review')).toBeVisible();

  // 3. Request changes: the draft becomes a thread, the task goes back for a review round.
  await page.getByLabel('Review summary (optional)', { exact: true }).fill('One question.');
  await page.getByRole('button', { name: 'Request changes', exact: true }).click();
  await expectStatus(page, 'awaiting_hypotheses');
  await expect(draft).toHaveCount(0);
  await expect(thread(page, 'calc.py lines 3–5')).toContainText(question.replaceAll('`', ''));
  await expect(page.getByRole('status', { name: 'Review state' })).toContainText(
    `changes requested by ${reviewer} · review round 1 of`,
  );
  expect((await getTask(agent, id)).status).toBe('awaiting_hypotheses');

  // 4. An agent reads the open thread with its code lines, answers it, and submits a change that
  // keeps the tests green: a comment line above the anchored code, which moves it down by one.
  const threads = await readThreads(agent, id);
  const open = threads.filter((t) => t.status === 'open');
  expect(open).toHaveLength(1);
  const [asked] = open;
  if (asked === undefined) throw new Error('no open thread');
  expect(asked).toMatchObject({ path: 'calc.py', side: 'new', startLine: 3, endLine: 5 });
  expect(asked.lines).toEqual(['', 'def add(a, b):', '    return a + b']);
  expect(asked.comments.map((c) => c.body)).toEqual([question]);
  const answer = 'Added a line above `add` that says each function takes two numbers.';
  const replied = await agent.post(
    `/api/v1/tasks/${encodeURIComponent(id)}/threads/${encodeURIComponent(asked.id)}/comments`,
    { body: answer },
  );
  expect([200, 201], describeResponse(replied)).toContain(replied.status);
  const answered = documented.replace(
    '# Calculator functions.\n',
    '# Calculator functions.\n# Each takes two numbers.\n',
  );
  const second = await submitHypotheses(agent, id, [
    {
      name: 'answer-review',
      edits: [{ path: pytestCalc.buggyFile, content: answered }],
      delete: [],
    },
  ]);
  expect(second.status, describeResponse(second)).toBe(202);

  // The reply shows live, marked as an agent's.
  const asking = thread(page, 'calc.py lines 3–5');
  await expect(asking).toContainText('each function takes two numbers');
  await expect(asking.locator('.author-kind-agent')).toHaveText('agent');

  // 5. The new diff is up for review; the thread moved with its code, to lines 4–6.
  const moved = await waitForTask(
    agent,
    id,
    (task) => task.status === 'awaiting_review' && task.diffSha256 !== ready.diffSha256,
    3 * minute,
  );
  await expectStatus(page, 'awaiting_review');
  await page.getByRole('button', { name: 'Show the new diff', exact: true }).click();
  await expect(page.getByLabel('Diff SHA-256', { exact: true })).toHaveText(moved.diffSha256 ?? '');
  const movedThread = thread(page, 'calc.py lines 4–6');
  await expect(movedThread).toContainText('open');
  await expect(movedThread).toContainText(answer.replaceAll('`', ''));
  for (const [line, text] of [
    [4, ''],
    [5, 'def add(a, b):'],
    [6, 'return a + b'],
  ] as const) {
    const code = page.locator(`.dl[data-side="new"][data-line="${line}"] .dl-code`);
    await expect(code).toHaveText(new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`));
  }
  await docsClipScreenshot(
    page,
    [page.locator('[data-row-key="file:0"]'), movedThread],
    'review-thread.png',
  );

  // j/k go from file to thread and back (two presses reach the thread from anywhere above it).
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(movedThread).toBeFocused();
  await page.keyboard.press('k');
  await expect(page.locator('#review-file-0')).toBeFocused();

  // 6. Approve is refused while the thread is open: the page says how many and where.
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'still open' })).toContainText(
    '1 thread on this diff is still open (calc.py:4-6 (new))',
  );
  await expect(taskStatus(page)).toHaveText('awaiting_review');

  // 7. The reviewer resolves it and approves.
  await movedThread.getByRole('button', { name: 'Resolve', exact: true }).click();
  await expect(movedThread).toContainText(`resolved by ${reviewer}`);
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  await expectStatus(page, 'approved');
  expect((await getTask(agent, id)).approvedDiffSha256).toBe(moved.diffSha256);

  expect(pageErrors).toEqual([]);

  // 8. The audit log names the person at each step.
  const adminContext = await browser.newContext({
    baseURL: shadowbox.url,
    storageState: storageStateFile(shadowbox, 'admin'),
  });
  try {
    const admin = await adminContext.newPage();
    await admin.goto(`/coding/audit?taskId=${encodeURIComponent(id)}`);
    const rows = admin.getByRole('table', { name: /Audit log/ }).locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    const entries = await rows.evaluateAll((trs): string[][] =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.trim())),
    );
    // Newest first: the steps appear in reverse order.
    const steps = [
      'review.comment',
      'task.request_changes',
      'review.reply',
      'review.resolve',
      'task.approve',
    ];
    const positions = steps.map((action) => entries.findIndex((row) => row[2] === action));
    expect(
      positions.every((at) => at >= 0),
      JSON.stringify(entries),
    ).toBe(true);
    expect([...positions].sort((a, b) => b - a)).toEqual(positions);
    for (const at of positions) expect(entries[at]?.[1]).toContain(reviewer);
    // The reply came from the agent's token, which acts as its owner.
    expect(entries[positions[2] ?? 0]?.[1]).toMatch(/token/);
  } finally {
    await adminContext.close();
  }
});
