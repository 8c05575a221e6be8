import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import {
  createArchiveTask,
  describeResponse,
  submitHypotheses,
  waitForTask,
} from '../server/test-support/rest-client';
import { expect, test } from './support/fixtures';
import { expectStatus, hypothesesTable } from './support/task-page';

const minute = 60_000;

// A bug next to a test that fails everywhere (no network in a run), under a long test path: the
// right fix wins by id and leaves the environmental test failing. The page shows each id whole
// (the test's own name is never cut), offers the environmental test as a known failure, and
// sends the partial fix to review at once instead of waiting out the iteration's wait.
const testFile = 'tests/integration/json_patch/test_operations_against_documents.py';
const fixedId = `${testFile}::TestReplaceOperation::test_replace_keeps_sibling_keys`;
const environmentalId = `${testFile}::TestRemoteDocuments::test_fetches_the_schema_over_https`;
const files: Record<string, string> = {
  'pytest.ini': '[pytest]\npythonpath = .\n',
  'patcher.py': 'def replace(doc, key, value):\n    return {key: value}\n',
  [testFile]: [
    'from patcher import replace',
    '',
    '',
    'class TestReplaceOperation:',
    '    def test_replace_keeps_sibling_keys(self):',
    '        assert replace({"a": 1, "b": 2}, "a", 3) == {"a": 3, "b": 2}',
    '',
    '',
    'class TestRemoteDocuments:',
    '    def test_fetches_the_schema_over_https(self):',
    '        raise ConnectionError("no route to schemas.example")',
    '',
  ].join('\n'),
};

test('a partial fix: ids shown whole, the environmental failure offered as known, sent to review now', async ({
  page,
  agent,
}) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sbx-e2e-partial-'));
  try {
    const tree = path.join(dir, 'tree');
    for (const [relative, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(tree, relative)), { recursive: true });
      await writeFile(path.join(tree, relative), content);
    }
    const file = path.join(dir, 'partial.tar.gz');
    await execa('tar', ['-czf', file, '-C', tree, '.']);
    const id = await createArchiveTask(
      agent,
      { path: file, name: 'partial.tar.gz', type: 'application/gzip' },
      {
        testCommand: ['python3', '-m', 'pytest', '-q'],
        maxIterations: 3,
        hypothesesPerIteration: 1,
      },
    );
    await waitForTask(agent, id, (t) => t.status === 'awaiting_hypotheses', 3 * minute);
    const submitted = await submitHypotheses(agent, id, [
      {
        name: 'keep-siblings',
        edits: [
          {
            path: 'patcher.py',
            content: 'def replace(doc, key, value):\n    return {**doc, key: value}\n',
          },
        ],
        delete: [],
      },
    ]);
    expect(submitted.status, describeResponse(submitted)).toBe(202);
    await waitForTask(
      agent,
      id,
      (t) => t.status === 'awaiting_hypotheses' && t.iterations.length === 2,
      3 * minute,
    );

    await page.goto(`/coding/${id}`);
    await expectStatus(page, 'awaiting_hypotheses');

    // The fixed test's id in the narrow table: its own name is shown in full, inside its cell;
    // only the middle of the path may be elided. Hover gives the whole id.
    const fixed = hypothesesTable(page).locator(`code.test-id[title="${fixedId}"]`).first();
    await expect(fixed).toBeVisible();
    const name = fixed.locator('.test-id-name');
    await expect(name).toHaveText('test_replace_keeps_sibling_keys');
    const [nameBox, idBox] = [await name.boundingBox(), await fixed.boundingBox()];
    expect(nameBox).not.toBeNull();
    expect(idBox).not.toBeNull();
    if (nameBox !== null && idBox !== null) {
      expect(nameBox.x + nameBox.width).toBeLessThanOrEqual(idBox.x + idBox.width + 1);
    }

    // The test that failed before any change is offered as a known failure.
    const exits = page.getByRole('region', { name: 'The fix so far' });
    await expect(
      exits.getByText(
        'This test failed before any change and still fails: treat it as a known failure?',
      ),
    ).toBeVisible();
    await expect(exits.getByRole('checkbox')).toBeChecked();
    await expect(exits.locator(`code.test-id[title="${environmentalId}"]`)).toBeVisible();

    // Send to review now: partial, listing what still fails, long before the 30-minute wait.
    await exits.getByRole('button', { name: 'Send to review now', exact: true }).click();
    await expectStatus(page, 'awaiting_review');
    const reviewed = await waitForTask(agent, id, (t) => t.status === 'awaiting_review', minute);
    expect(reviewed.reviewPartial).toBe(true);
    expect(reviewed.stillFailing).toEqual([environmentalId]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
