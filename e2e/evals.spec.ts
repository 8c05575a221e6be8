import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseEvalSet } from '../server/evals/eval-instance';
import { summarize, writeRunFile } from '../server/evals/run/run-file';
import { newRunFile } from '../server/evals/run/run-set';
import { expect, test } from './support/fixtures';
import { accountBar, people } from './support/people';
import { storageStateFile } from './support/state';

/**
 * The /coding/evals page (#28 item 3). The e2e server has no LLM configured, so starting a run is
 * refused with the reason; a finished run is seeded where the server keeps its runs
 * (<dataDir>/evals/<runId>/), with an instance id and reasons written as HTML: the page and its
 * report frame show them as text, and no script of theirs runs.
 */

const hostile = `calc__<img src=x onerror="window.__pwned=1">`;

const line = (id: string) =>
  JSON.stringify({
    instance_id: id,
    repo: 'https://git.example.com/calc.git',
    base_commit: 'a'.repeat(40),
    patch: '',
    test_patch: '',
    problem_statement: 'mean() floors',
    FAIL_TO_PASS: ['test_calc.py::test_mean'],
    PASS_TO_PASS: [],
    test_command: ['python3', '-m', 'pytest', '-q'],
  });

/** A finished run of two instances, as the server writes one; resolves to its id. */
async function seedRun(dataDir: string): Promise<string> {
  const runId = `eval-${randomBytes(6).toString('hex')}`;
  const set = `${line(hostile)}\n${line('calc__plain')}\n`;
  const run = newRunFile({
    runId,
    set: '<b>seeded</b>.jsonl',
    fixer: 'llm',
    model: 'seeded-model',
    k: 1,
    maxIterations: 1,
    startedAt: new Date().toISOString(),
    instances: parseEvalSet(set),
  });
  const attempt = (resolved: boolean, why: string) => ({
    attempt: 0,
    state: 'done' as const,
    resolved,
    taskId: null,
    tokens: 1000,
    costUsd: 0.0026,
    durationMs: 1200,
    iterations: 1,
    why,
  });
  run.instances[0]?.attempts.push(attempt(true, 'resolved'));
  run.instances[1]?.attempts.push(attempt(false, '<script>window.__pwned=2</script> failing'));
  const dir = path.join(dataDir, 'evals', runId);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(path.join(dir, 'set.jsonl'), set);
  const meta = {
    ownerId: 'seeded',
    owner: people.reviewer.username,
    parallel: 1,
    testCommand: null,
    timeoutSecs: 60,
    error: null,
  };
  await writeFile(path.join(dir, 'meta.json'), JSON.stringify(meta));
  await writeRunFile(path.join(dir, 'run.json'), { ...run, summary: summarize(run) });
  return runId;
}

test('the evals page refuses a run without an LLM and shows a seeded run as text', async ({
  page,
  browser,
  shadowbox,
}) => {
  const runId = await seedRun(shadowbox.dataDir);

  await page.goto('/coding');
  await accountBar(page).getByRole('link', { name: 'Evals', exact: true }).click();
  await expect(page).toHaveURL(/\/coding\/evals$/);
  await expect(page.getByRole('heading', { name: 'Evals', level: 1 })).toBeVisible();
  await expect(page.getByText('No LLM is configured on this server.')).toBeVisible();

  // Starting is refused, with the reason.
  await page.getByLabel('Set (JSON Lines)').fill(line('calc__new'));
  await page.getByRole('button', { name: 'Start run', exact: true }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'no LLM is configured on this server' }),
  ).toBeVisible();

  // The seeded run is listed, finished, with its figures.
  const row = page.locator(`tr[data-run-id="${runId}"]`);
  await expect(row).toContainText('done');
  await expect(row).toContainText('2/2 instances · 2/2 attempts · 1 resolved');
  await row.getByRole('link', { name: '<b>seeded</b>.jsonl', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/coding/evals/${runId}$`));

  // Every string of the run is text: in the attempts table and in the report frame.
  await expect(page.getByRole('rowheader', { name: hostile, exact: true })).toBeVisible();
  await expect(page.getByText('<script>window.__pwned=2</script> failing')).toBeVisible();
  const frame = page.locator('iframe[title="Eval report"]');
  await expect(frame).toHaveAttribute('sandbox', '');
  const report = page.frameLocator('iframe[title="Eval report"]');
  await expect(report.getByRole('cell', { name: hostile, exact: true })).toBeVisible();
  await expect(report.locator('svg')).toHaveCount(1);
  await expect(report.locator('img, script')).toHaveCount(0);
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

  // An author has no Evals link, and the page refuses them.
  const authorContext = await browser.newContext({
    baseURL: shadowbox.url,
    storageState: storageStateFile(shadowbox, 'author'),
  });
  try {
    const authorPage = await authorContext.newPage();
    await authorPage.goto('/coding');
    await expect(accountBar(authorPage).getByRole('link', { name: 'Evals' })).toHaveCount(0);
    await authorPage.goto('/coding/evals');
    await expect(
      authorPage
        .getByRole('alert')
        .filter({ hasText: 'Forbidden (403): eval runs are for reviewers and admins' }),
    ).toBeVisible();
  } finally {
    await authorContext.close();
  }
});
