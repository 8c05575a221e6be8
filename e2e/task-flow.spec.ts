import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { copyProject, editOf, packProject } from '../server/test-support/projects';
import {
  describeResponse,
  getTask,
  hasStatus,
  submitHypotheses,
  waitForTask,
} from '../server/test-support/rest-client';
import { expect, test } from './support/fixtures';
import { people } from './support/people';
import {
  docsScreenshot,
  expectStatus,
  hypothesisCell,
  hypothesisRow,
  replaceEditorContent,
  shownDiffHash,
  taskListRow,
  taskStatus,
} from './support/task-page';

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

test('a task from an uploaded archive, one hypothesis from the editor and one from an agent, approved and downloaded', async ({
  page,
  context,
  agent,
  pytestCalc,
}) => {
  const { right, wrong } = pytestCalc.hypotheses;
  const archive = await packProject(pytestCalc);
  const scratch = [archive.dir];
  const title = 'The calculator gives a wrong answer';
  try {
    // 1. The form: an archive, the test command as typed, two hypotheses per iteration.
    await page.goto('/coding/new');
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page
      .getByLabel('Problem (Markdown)', { exact: true })
      .fill('The calculator returns the **wrong** answer.\n\n<b>raw HTML stays text</b>');
    await page.getByLabel('Archive', { exact: true }).setInputFiles(archive.file);
    await page.getByLabel('Test command', { exact: true }).fill('python3 -m pytest -q');
    await page.getByLabel('Max iterations', { exact: true }).fill('3');
    await page.getByLabel('Hypotheses per iteration', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Create task', exact: true }).click();
    await page.waitForURL(/\/coding\/(?!new$)[^/?#]+$/);
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
    expect(id).not.toBe('');

    // The page is headed by the title; the problem is Markdown, its raw HTML shown as text.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    const problem = page.getByRole('region', { name: 'Problem', exact: true });
    await expect(problem.locator('strong')).toHaveText('wrong');
    await expect(problem).toContainText('<b>raw HTML stays text</b>');

    // 2. The baseline is red (one failing test) and the first iteration waits for hypotheses.
    await expectStatus(page, 'awaiting_hypotheses');
    await expect(page.getByText(/\b1 failed\b/).first()).toBeVisible();
    const created = await getTask(agent, id);
    expect(created.testCommand).toEqual(['python3', '-m', 'pytest', '-q']);
    expect(created.hypothesesPerIteration).toBe(2);

    // 3. The right fix, written by hand in the editor.
    await page.getByRole('button', { name: 'New hypothesis', exact: true }).click();
    await page.getByLabel('Hypothesis name', { exact: true }).fill(right.name);
    await page.getByLabel('File', { exact: true }).selectOption(pytestCalc.buggyFile);
    const editor = page.getByRole('textbox', { name: /calc\.py/ });
    await expect(editor).toBeAttached();
    await replaceEditorContent(page, editor, editOf(right, pytestCalc.buggyFile));

    // 4. Submitted together with the wrong fix from an agent over REST: an iteration starts once
    // it has its two hypotheses, or a few seconds after the first, so the two go in at once.
    const [submitted] = await Promise.all([
      submitHypotheses(agent, id, [wrong]),
      page.getByRole('button', { name: 'Submit hypothesis', exact: true }).click(),
    ]);
    expect(submitted.status, describeResponse(submitted)).toBe(202);

    // 5. Both run and are ranked live: the right fix first, the wrong one second.
    await expect(await hypothesisCell(page, right.name, 'Rank')).toHaveText('1', {
      timeout: 180_000,
    });
    await expect(await hypothesisCell(page, wrong.name, 'Rank')).toHaveText('2');
    await expect(hypothesisRow(page, right.name)).toHaveCount(1);
    await expect(hypothesisRow(page, wrong.name)).toHaveCount(1);
    await expect(await hypothesisCell(page, right.name, 'Failed')).toHaveText('0');
    await expect(await hypothesisCell(page, right.name, 'Passed')).toHaveText(
      String(pytestCalc.tests.total),
    );
    await expect(await hypothesisCell(page, right.name, 'Origin')).toHaveText(/human/);
    await expectStatus(page, 'awaiting_review');

    // 6. The hash under review is the server's.
    const hash = await shownDiffHash(page);
    const ready = await getTask(agent, id);
    expect(ready.diffSha256).toBe(hash);
    expect(ready.iterations.map((iteration) => iteration.winner)).toEqual([right.name]);
    await expect(page.getByText('len(values)').first()).toBeVisible();
    // The files changed: the diff with the file tree beside it, the verdict above.
    await docsScreenshot(page, 'task.png');

    // 7. The list on /coding follows the task live (another tab, open before the approval).
    const list = await context.newPage();
    await list.goto('/coding');
    const listRow = taskListRow(list, id);
    await expect(listRow).toContainText('awaiting_review');
    await expect(listRow.getByRole('link', { name: title, exact: true })).toBeVisible();

    // 8. Approve.
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(taskStatus(page)).toHaveText('approved');
    // The verdict names the reviewer who gave it, and the hash they approved.
    const decision = page.locator('.decision');
    await expect(decision).toContainText(`approved by ${people.reviewer.username}`);
    await expect(decision.locator('abbr')).toHaveAttribute('title', hash);
    const approved = await waitForTask(agent, id, hasStatus('approved'), 30_000);
    expect(approved.approvedDiffSha256).toBe(hash);
    await expect(listRow).toContainText('approved');
    await docsScreenshot(list, 'coding.png');
    await list.close();

    // 9. The patch download: its bytes are the hash shown, its name says which task and diff.
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download patch', exact: true }).click();
    const download = await downloading;
    const file = await download.path();
    const bytes = await readFile(file);
    expect(sha256(bytes)).toBe(hash);
    expect(download.suggestedFilename()).toContain(id);
    expect(download.suggestedFilename()).toContain(hash.slice(0, 12));

    // 10. It applies to a fresh copy of the original project, whose tests then pass.
    const copy = await copyProject(pytestCalc);
    scratch.push(path.dirname(copy));
    const patchFile = path.join(path.dirname(copy), download.suggestedFilename());
    await writeFile(patchFile, bytes);
    const gitEnv = { GIT_CEILING_DIRECTORIES: path.dirname(copy) };
    const applied = await execa('git', ['apply', patchFile], {
      cwd: copy,
      env: gitEnv,
      reject: false,
      all: true,
    });
    expect(applied.exitCode, applied.all).toBe(0);
    expect(await readFile(path.join(copy, pytestCalc.buggyFile), 'utf8')).toBe(
      editOf(right, pytestCalc.buggyFile),
    );
    const [command = '', ...args] = pytestCalc.hostTestCommand;
    const tests = await execa(command, args, {
      cwd: copy,
      env: { ...pytestCalc.hostTestEnv },
      reject: false,
      all: true,
    });
    expect(tests.exitCode, tests.all).toBe(0);
  } finally {
    for (const dir of scratch) await rm(dir, { recursive: true, force: true });
  }
});
