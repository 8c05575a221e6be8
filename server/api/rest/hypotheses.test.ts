import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliActor } from '../../auth/actor';
import type { TaskView } from '../../tasks/task-api';
import { handleSubmitHypotheses } from './hypotheses';
import { expectError, readJson } from './test-support/assertions';
import { createFakeRuntime, type FakeRuntime } from './test-support/fake-runtime';
import { auth, base, jsonRequest } from './test-support/requests';

let fake: FakeRuntime;
let task: TaskView;

beforeEach(async () => {
  fake = await createFakeRuntime();
  task = fake.tasks.addTask({ status: 'awaiting_hypotheses' });
});
afterEach(async () => {
  await fake.dispose();
});

function submit(body: unknown, headers?: Record<string, string>): Promise<Response> {
  return handleSubmitHypotheses(
    jsonRequest('POST', `/tasks/${task.id}/hypotheses`, body, headers),
    fake.deps,
    { id: task.id },
  );
}

const fix = {
  name: 'fix-add',
  edits: [{ path: 'src/lib.rs', content: 'pub fn add(a: i32, b: i32) -> i32 { a + b }\n' }],
};

describe('POST /api/v1/tasks/{id}/hypotheses', () => {
  it('queues the hypotheses: 202 {"accepted":[names]}, delete defaults to []', async () => {
    const response = await submit({
      hypotheses: [fix, { name: 'drop-old', delete: ['src/old.rs'] }],
    });
    expect(await readJson(response, 202)).toEqual({ accepted: ['fix-add', 'drop-old'] });
    expect(fake.tasks.submitted).toHaveLength(1);
    expect(fake.tasks.submitted[0]!.taskId).toBe(task.id);
    expect(fake.tasks.submitted[0]!.hypotheses).toEqual([
      { ...fix, delete: [] },
      { name: 'drop-old', edits: [], delete: ['src/old.rs'] },
    ]);
    expect(fake.tasks.submitted[0]!.actor).toMatchObject({ kind: 'token', tokenId: 'tok-agent' });
  });

  it('refuses an empty list', async () => {
    await expectError(await submit({ hypotheses: [] }), 400, 'INVALID_ARGUMENT', /at least one/);
  });

  it('refuses more than 16 hypotheses', async () => {
    const hypotheses = Array.from({ length: 17 }, (_, index) => ({ ...fix, name: `h${index}` }));
    await expectError(await submit({ hypotheses }), 400, 'INVALID_ARGUMENT', /at most 16/);
    expect(fake.tasks.submitted).toHaveLength(0);
  });

  it('refuses unknown fields inside an edit, naming the field and where it is', async () => {
    const response = await submit({
      hypotheses: [{ name: 'x', edits: [{ path: 'a.py', content: '', mode: '0755' }] }],
    });
    await expectError(
      response,
      400,
      'INVALID_ARGUMENT',
      'hypotheses[0].edits[0]: unknown field "mode"',
    );
  });

  it('refuses unknown top-level fields', async () => {
    const response = await submit({ hypotheses: [fix], wait: true });
    await expectError(response, 400, 'INVALID_ARGUMENT', /^request body: unknown field "wait"$/);
  });

  it('refuses a hypothesis without a name', async () => {
    const response = await submit({ hypotheses: [{ name: '', edits: [] }] });
    await expectError(
      response,
      400,
      'INVALID_ARGUMENT',
      /hypotheses\[0\]\.name: a hypothesis needs a name/,
    );
  });

  it('maps a refusal of the service (duplicate name) to 400 INVALID_HYPOTHESIS', async () => {
    expect((await submit({ hypotheses: [fix] })).status).toBe(202);
    await expectError(await submit({ hypotheses: [fix] }), 400, 'INVALID_HYPOTHESIS', /already/);
  });

  it('refuses malformed JSON', async () => {
    await expectError(
      await submit('{"hypotheses": [}'),
      400,
      'INVALID_ARGUMENT',
      'request body is not valid JSON',
    );
  });

  it('refuses bytes that are not UTF-8', async () => {
    const request = new Request(`${base}/tasks/${task.id}/hypotheses`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    const response = await handleSubmitHypotheses(request, fake.deps, { id: task.id });
    await expectError(response, 400, 'INVALID_ARGUMENT', 'request body is not valid UTF-8');
  });

  it('refuses a form body: 415', async () => {
    const request = new Request(`${base}/tasks/${task.id}/hypotheses`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'hypotheses=x',
    });
    const response = await handleSubmitHypotheses(request, fake.deps, { id: task.id });
    await expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE', /application\/json/);
  });

  it('refuses a body without a content type: 415', async () => {
    const request = new Request(`${base}/tasks/${task.id}/hypotheses`, {
      method: 'POST',
      headers: auth(),
      body: new Uint8Array(Buffer.from(JSON.stringify({ hypotheses: [fix] }))),
    });
    const response = await handleSubmitHypotheses(request, fake.deps, { id: task.id });
    await expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE', /no Content-Type/);
  });

  it('refuses a body over 16 MiB: 413', async () => {
    const content = 'x'.repeat(4 * 1024 * 1024);
    const hypotheses = Array.from({ length: 5 }, (_, index) => ({
      name: `h${index}`,
      edits: [{ path: 'big.txt', content }],
    }));
    const response = await submit({ hypotheses });
    await expectError(response, 413, 'PAYLOAD_TOO_LARGE', /16 MiB/);
    expect(fake.tasks.submitted).toHaveLength(0);
  });

  it('needs a token', async () => {
    await expectError(await submit({ hypotheses: [fix] }, {}), 401, 'UNAUTHENTICATED');
  });

  it('is 404 for an unknown task', async () => {
    const id = 'c000000000000000000000000';
    const response = await handleSubmitHypotheses(
      jsonRequest('POST', `/tasks/${id}/hypotheses`, { hypotheses: [fix] }),
      fake.deps,
      { id },
    );
    await expectError(response, 404, 'NOT_FOUND');
  });

  describe("against the task's files", () => {
    beforeEach(() => {
      fake.tasks.files.set(
        task.id,
        new Map([
          ['calc.py', 'def add(a, b):\n    return a - b\n'],
          ['src/lib.rs', 'fn main() {}\n'],
        ]),
      );
    });

    async function expectRefused(hypotheses: unknown[], message: string): Promise<void> {
      const before = await fake.tasks.getTask(task.id, cliActor);
      const error = await expectError(
        await submit({ hypotheses }),
        400,
        'INVALID_HYPOTHESIS',
        message,
      );
      expect(error.message).toBe(message);
      // Refused whole: the good hypothesis next to it was not queued either.
      expect(fake.tasks.submitted).toHaveLength(0);
      expect(await fake.tasks.getTask(task.id, cliActor)).toEqual(before);
    }

    it('refuses a hypothesis whose path has a file as its parent (calc.py/x) with 400 naming it', async () => {
      await expectRefused(
        [fix, { name: 'fix-2', edits: [{ path: 'calc.py/x', content: 'x' }] }],
        "hypothesis 'fix-2': 'calc.py/x' cannot be written: its parent 'calc.py' is a file",
      );
    });

    it('refuses a hypothesis whose edit would replace a directory with 400 naming it', async () => {
      await expectRefused(
        [fix, { name: 'fix-2', edits: [{ path: 'src', content: 'x' }] }],
        "hypothesis 'fix-2': 'src' cannot be written: it is a directory",
      );
    });

    it('refuses a hypothesis that deletes a directory with 400 naming it', async () => {
      await expectRefused(
        [{ name: 'fix-2', delete: ['src'] }],
        "hypothesis 'fix-2': 'src' cannot be deleted: it is a directory",
      );
    });
  });

  it('refuses the 65th pending hypothesis with 409 INBOX_FULL', async () => {
    for (let batch = 0; batch < 4; batch += 1) {
      const hypotheses = Array.from({ length: 16 }, (_, i) => ({ ...fix, name: `h${batch}-${i}` }));
      expect((await submit({ hypotheses })).status).toBe(202);
    }
    const before = await fake.tasks.getTask(task.id, cliActor);
    expect(before.pendingHypotheses).toHaveLength(64);
    const error = await expectError(
      await submit({ hypotheses: [{ ...fix, name: 'one-more' }] }),
      409,
      'INBOX_FULL',
    );
    expect(error.message).toBe(
      `task ${task.id} already holds 64 pending hypotheses (the cap is 64); wait for the iteration to run them`,
    );
    expect(error.details).toEqual({ pending: 64, submitted: 1, cap: 64 });
    expect(fake.tasks.submitted).toHaveLength(4);
    expect(await fake.tasks.getTask(task.id, cliActor)).toEqual(before);
  });
});
