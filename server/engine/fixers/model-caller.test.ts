import { describe, expect, it } from 'vitest';
import { parseFixAnswer } from './answer-schema';
import { SpendMeter, type ChatMessage } from './chat-client';
import { createModelCaller, sampleValidated, type ModelCallerOptions } from './model-caller';
import { fixRetryMessage } from './prompt';
import { FakeChatClient, fixJson, httpError, type FakeReply } from '../../test-support/fake-chat';

const messages: ChatMessage[] = [
  { role: 'system', content: 'rules' },
  { role: 'user', content: 'fix it' },
];
const live = new AbortController().signal;

function caller(
  reply: (
    body: Parameters<ConstructorParameters<typeof FakeChatClient>[0]>[0],
    i: number,
  ) => FakeReply,
  options: Partial<ModelCallerOptions> = {},
) {
  const client = new FakeChatClient(reply);
  return { client, caller: createModelCaller({ client, model: 'm', timeoutMs: 1000, ...options }) };
}

describe('createModelCaller', () => {
  it('asks for K samples in one request with n, JSON mode and the configured temperature', async () => {
    const { client, caller: c } = caller(() => ({ contents: ['a', 'b', 'c'] }), {
      temperature: 0.7,
    });
    const outcomes = await c.sample(messages, 3, live, new SpendMeter());
    expect(outcomes).toEqual([
      { kind: 'answer', content: 'a', truncated: false },
      { kind: 'answer', content: 'b', truncated: false },
      { kind: 'answer', content: 'c', truncated: false },
    ]);
    expect(client.calls).toHaveLength(1);
    expect(client.calls[0]?.body).toEqual({
      model: 'm',
      messages,
      stream: false,
      n: 3,
      temperature: 0.7,
      response_format: { type: 'json_object' },
    });
    expect(client.calls[0]?.options?.maxRetries).toBe(0);
  });

  it('falls back to parallel requests when the server refuses n, and remembers', async () => {
    const { client, caller: c } = caller((body) =>
      (body.n ?? 1) > 1
        ? { error: httpError(400, 'Only one completion choice is allowed') }
        : { content: 'x' },
    );
    expect(await c.sample(messages, 3, live, new SpendMeter())).toHaveLength(3);
    expect(client.calls.map((call) => call.body.n)).toEqual([3, undefined, undefined, undefined]);
    expect(await c.sample(messages, 2, live, new SpendMeter())).toHaveLength(2);
    expect(client.calls.slice(4).map((call) => call.body.n)).toEqual([undefined, undefined]);
  });

  it('tops up with separate requests when the server ignores n', async () => {
    const { client, caller: c } = caller(() => ({ content: 'x', ignoreN: true }));
    const outcomes = await c.sample(messages, 3, live, new SpendMeter());
    expect(outcomes.map((o) => o.kind)).toEqual(['answer', 'answer', 'answer']);
    expect(client.calls.map((call) => call.body.n)).toEqual([3, undefined, undefined]);
  });

  it('drops response_format for good when the server refuses it', async () => {
    const { client, caller: c } = caller((body) =>
      body.response_format === undefined
        ? { content: 'x' }
        : { error: httpError(400, 'unknown field') },
    );
    expect(await c.sample(messages, 1, live, new SpendMeter())).toEqual([
      { kind: 'answer', content: 'x', truncated: false },
    ]);
    await c.sample(messages, 1, live, new SpendMeter());
    expect(client.calls.map((call) => call.body.response_format?.type ?? null)).toEqual([
      'json_object',
      null,
      null,
    ]);
  });

  it('reports a request past the timeout as a timeout and counts its prompt', async () => {
    const { caller: c } = caller(() => ({ hang: true }), { timeoutMs: 50 });
    const meter = new SpendMeter();
    const started = Date.now();
    expect(await c.sample(messages, 2, live, meter)).toEqual([
      { kind: 'timeout' },
      { kind: 'timeout' },
    ]);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(meter.promptTokens).toBe(Math.ceil('rules'.length / 4) + Math.ceil('fix it'.length / 4));
  });

  it('reports other failures with the reason, without retrying', async () => {
    const { client, caller: c } = caller(() => ({
      error: httpError(500, 'Internal  Server\nError'),
    }));
    expect(await c.sample(messages, 1, live, new SpendMeter())).toEqual([
      { kind: 'failed', reason: 'the model request failed: 500 Internal Server Error' },
    ]);
    expect(client.calls).toHaveLength(1);
  });

  it('rejects with the reason when the step is aborted', async () => {
    const { caller: c } = caller(() => ({ hang: true }), { timeoutMs: 10_000 });
    const controller = new AbortController();
    const pending = c.sample(messages, 1, controller.signal, new SpendMeter());
    controller.abort(new Error('task cancelled'));
    await expect(pending).rejects.toThrow('task cancelled');
  });

  it('marks answers cut at the output limit', async () => {
    const { caller: c } = caller(() => ({ content: '{"na', finishReason: 'length' }));
    expect(await c.sample(messages, 1, live, new SpendMeter())).toEqual([
      { kind: 'answer', content: '{"na', truncated: true },
    ]);
  });
});

describe('sampleValidated', () => {
  const valid = fixJson('fix', { 'a.py': 'x = 1\n' });
  const run = (reply: (body: { messages: ChatMessage[] }, i: number) => FakeReply, count = 1) => {
    const { client, caller: c } = caller(reply, { multipleChoices: 'separate', timeoutMs: 100 });
    const meter = new SpendMeter();
    return sampleValidated(c, {
      messages,
      count,
      parse: parseFixAnswer,
      retryMessage: fixRetryMessage,
      timeoutMs: 100,
      signal: live,
      meter,
    }).then((results) => ({ results, client, meter }));
  };

  it('keeps a valid answer without a retry', async () => {
    const { results, client } = await run(() => ({ content: valid }));
    expect(results).toEqual([
      {
        kind: 'valid',
        value: { name: 'fix', edits: [{ path: 'a.py', content: 'x = 1\n' }], delete: [] },
        retried: false,
      },
    ]);
    expect(client.calls).toHaveLength(1);
  });

  it('retries an invalid answer once, in its own conversation with the error appended', async () => {
    const { results, client } = await run((_, i) => ({ content: i === 0 ? 'not json' : valid }));
    expect(results[0]).toMatchObject({ kind: 'valid', retried: true });
    expect(client.calls).toHaveLength(2);
    const retry = client.calls[1]?.body.messages ?? [];
    expect(retry.slice(0, 2)).toEqual(messages);
    expect(retry[2]).toEqual({ role: 'assistant', content: 'not json' });
    expect(retry[3]?.role).toBe('user');
    expect(retry[3]?.content).toMatch(
      /^Your answer was not valid: the answer is not a JSON object \(/,
    );
  });

  it('rejects an answer that is invalid twice, with the last error', async () => {
    const { results, client } = await run((_, i) => ({
      content: i === 0 ? 'not json' : fixJson('fix', { '../x': '' }),
    }));
    expect(results).toEqual([
      {
        kind: 'rejected',
        reason:
          "the model's answer was invalid twice: edits[0].path: path '../x' contains a '..' segment",
      },
    ]);
    expect(client.calls).toHaveLength(2);
  });

  it('retries each invalid sample on its own; valid ones are not asked again', async () => {
    const { results, client } = await run((_, i) => ({ content: i === 1 ? 'nope' : valid }), 3);
    expect(results.map((r) => r.kind)).toEqual(['valid', 'valid', 'valid']);
    expect(results.map((r) => (r.kind === 'valid' ? r.retried : null))).toEqual([
      false,
      true,
      false,
    ]);
    expect(client.calls).toHaveLength(4);
  });

  it('rejects a timed-out sample with the timeout, without a retry', async () => {
    const { results, client } = await run(() => ({ hang: true }));
    expect(results).toEqual([
      { kind: 'rejected', reason: 'the model did not answer within 0.1 s' },
    ]);
    expect(client.calls).toHaveLength(1);
  });

  it('says when an invalid answer was cut at the output limit', async () => {
    const { results } = await run(() => ({
      content: '{"name": "fix", "ed',
      finishReason: 'length',
    }));
    expect(results[0]).toMatchObject({ kind: 'rejected' });
    expect(results[0]?.kind === 'rejected' ? results[0].reason : '').toMatch(
      /cut off at the model's output limit\)$/,
    );
  });
});
