import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLlmConfig } from '../llm/llm-config';
import type { ServerRuntime } from '../runtime';
import { openScratchRuntime, type ScratchRuntime } from '../test-support/scratch-runtime';
import { requestText, startFakeOpenAi, type FakeOpenAi } from '../test-support/fake-openai';
import { fixtureProject, packProject } from '../test-support/projects';
import type { Actor, TaskView } from './task-api';
import { parseDiff } from '../engine/review';
import { tokenIn, userIn } from '../test-support/actors';

const project = fixtureProject('pytest-calc');
const usage = { prompt_tokens: 900, completion_tokens: 100 };

let fake: FakeOpenAi;
let scratch: ScratchRuntime;
let runtime: ServerRuntime;
/** The agent token of the tasks' owner. */
let agent: Actor;

beforeAll(async () => {
  // The model: the right fix once the prompt shows the failing test, a review for a diff.
  fake = await startFakeOpenAi((request) => {
    const text = requestText(request);
    if (request.body.model === 'critic') {
      return { content: '{"verdict":"looks_good","comment":"divides as the test expects"}', usage };
    }
    // A review round: keep the fix, answer the reviewer's comment, and reply in its thread.
    const thread = /^Thread (\S+) — /m.exec(text)?.[1];
    if (thread !== undefined) {
      const { right } = project.hypotheses;
      const edits = right.edits.map((e) => ({ ...e, content: `${e.content}# Reviewed.\n` }));
      const replies = [{ threadId: thread, body: 'Added the note you asked for.' }];
      return { content: JSON.stringify({ ...right, name: 'note', edits, replies }), usage };
    }
    const answer = text.includes('test_mean') ? project.hypotheses.right : project.hypotheses.wrong;
    return { content: JSON.stringify(answer), usage };
  });
  const llm = loadLlmConfig({
    SHADOWBOX_LLM_BASE_URL: fake.url,
    SHADOWBOX_LLM_MODEL: 'fixer',
    SHADOWBOX_REVIEWER_MODEL: 'critic',
    SHADOWBOX_LLM_PRICE_INPUT_PER_MTOK: '2',
    SHADOWBOX_LLM_PRICE_OUTPUT_PER_MTOK: '8',
  });
  scratch = await openScratchRuntime('sbx-llm-task-', { llm });
  runtime = scratch.runtime;
  agent = await tokenIn(runtime.db, 'alice', ['agent']);
});

afterAll(async () => {
  await scratch.close();
  await fake.close();
});

async function waitFor(id: string, done: (t: TaskView) => boolean): Promise<TaskView> {
  const until = Date.now() + 180_000;
  for (;;) {
    const task = await runtime.tasks.getTask(id, agent);
    if (done(task)) return task;
    if (Date.now() > until) throw new Error(`timed out: ${JSON.stringify(task).slice(0, 2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('a task with the LLM fixer', () => {
  it('reaches green with the model’s fix, shows its spend and the reviewer’s comment', async () => {
    const packed = await packProject(project);
    const upload = path.join(runtime.uploadDir, 'llm-upload');
    await copyFile(packed.file, upload);
    await packed.cleanup();
    const { id } = await runtime.tasks.createTask(
      {
        source: { kind: 'archive', file: upload, name: packed.name },
        testCommand: project.testCommand,
        fixer: 'llm',
        hypothesesPerIteration: 2,
      },
      agent,
    );
    // The reviewer comments right after the diff is put up for review.
    const task = await waitFor(
      id,
      (t) =>
        (t.status === 'awaiting_review' && t.reviewComments.length > 0) || t.status === 'failed',
    );
    expect(task.status, task.error ?? '').toBe('awaiting_review');
    expect(task.iterations[0]?.hypotheses[0]).toMatchObject({ origin: 'llm', verdict: 'winner' });
    // One request for both samples (n = 2; usage covers all choices) and one review, 1,000
    // tokens each, at (900 × 2 + 100 × 8) / 1e6 $ = 2,600 µ$ each.
    expect(fake.requests.map((r) => [r.body.model, r.body.n ?? 1])).toEqual([
      ['fixer', 2],
      ['critic', 1],
    ]);
    expect(task.spend.tokens).toBe(2000);
    expect(task.spend.costMicroUsd).toBe(2 * 2600);
    expect(task.spend.maxTokens).toBe(200_000);
    expect(task.reviewComments).toEqual([
      expect.objectContaining({ reviewer: 'model:critic', verdict: 'looks_good' }),
    ]);
    expect(task.status).not.toBe('approved');

    // A reviewer asks for a change on the fix's first added line: the next request to the model
    // carries the comment, its place and its code; the model's reply lands in the thread.
    const reviewer = await userIn(runtime.db, 'root', 'admin');
    const { diff, sha256 } = await runtime.tasks.getDiff(id, reviewer);
    const file = parseDiff(diff).find((f) => f.additions > 0);
    const added = file?.lines.find((l) => l.kind === '+');
    if (file?.newPath == null || added === undefined) throw new Error(`no added line in ${diff}`);
    const asked = fake.requests.length;
    await runtime.reviews.submit(
      id,
      {
        verdict: 'request_changes',
        sha256,
        summary: 'Say why it divides this way.',
        comments: [
          {
            path: file.newPath,
            side: 'new',
            startLine: added.newLine,
            endLine: added.newLine,
            body: 'Leave a note here.',
          },
        ],
      },
      reviewer,
    );
    const round = await waitFor(
      id,
      (t) => (t.status === 'awaiting_review' && t.diffSha256 !== sha256) || t.status === 'failed',
    );
    expect(round.status).toBe('awaiting_review');
    expect(round.review).toMatchObject({ round: 1, state: 'changes_requested' });
    const prompt = fake.requests
      .slice(asked)
      .filter((r) => r.body.model === 'fixer')
      .map(requestText)
      .join('\n');
    expect(prompt).toContain('Leave a note here.');
    expect(prompt).toContain('Say why it divides this way.');
    expect(prompt).toContain(`${file.newPath}:${added.newLine} (new)`);
    expect(prompt).toContain(added.text);
    // The thread moved to the new diff, with the fixer's reply; it is still open for the reviewer.
    const { threads } = await runtime.reviews.threads(id, reviewer);
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({ status: 'open', diffSha256: round.diffSha256 });
    expect(threads[0]?.comments.map((c) => [c.authorKind, c.author, c.body])).toEqual([
      ['person', 'root', 'Leave a note here.'],
      ['fixer', 'fixer:llm', 'Added the note you asked for.'],
    ]);
  });

  it('is refused at creation when the server has no LLM configured', async () => {
    const plain = await openScratchRuntime('sbx-llm-none-', { llm: null });
    try {
      await expect(
        plain.runtime.tasks.createTask(
          {
            source: { kind: 'git', url: 'https://example.com/x.git' },
            testCommand: ['pytest'],
            fixer: 'llm',
          },
          await tokenIn(plain.runtime.db, 'alice', ['agent']),
        ),
      ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: /no LLM configured/ });
    } finally {
      await plain.close();
    }
  });
});
