import { describe, expect, it } from 'vitest';
import type { CandidateHypothesis, FixRequest, RepositoryView, ReviewRequest } from '../loop/fixer';
import type { RunSummary } from '../loop/task-events';
import { estimateMessagesTokens } from './chat-client';
import { createLlmFixer, type LlmFixerOptions } from './llm-fixer';
import { FakeChatClient, fixJson, type FakeReply } from '../../test-support/fake-chat';

const now = new Date('2026-11-02T10:00:00Z');
const calcPy = 'def mean(values):\n    return sum(values) // len(values)\n';
const testCalcPy = 'from calc import mean\n\n\ndef test_mean():\n    assert mean([1, 2]) == 1.5\n';
const fixedCalcPy = calcPy.replace('//', '/');
const files: Record<string, string> = {
  'calc.py': calcPy,
  'test_calc.py': testCalcPy,
  'README.md': '# calc\n',
};
const pytestTail = [
  '...F',
  '>       assert mean([1, 2]) == 1.5',
  'E       assert 1 == 1.5',
  'test_calc.py:5: AssertionError',
  'FAILED test_calc.py::test_mean - assert 1 == 1.5',
  '1 failed, 3 passed in 0.12s',
].join('\n');

function repository(contents: Record<string, string>, reads: string[] = []): RepositoryView {
  return {
    listFiles: () => Promise.resolve(Object.keys(contents)),
    readFile: (path) => {
      reads.push(path);
      const content = contents[path];
      return content === undefined ? Promise.reject(new Error('binary')) : Promise.resolve(content);
    },
  };
}

const lastRun: RunSummary = {
  exitCode: 1,
  signal: null,
  timedOut: false,
  durationMs: 120,
  passed: 3,
  failed: 1,
  skipped: 0,
  parsed: true,
  buildFailed: false,
  cases: [],
  tests: null,
  disqualified: null,
  green: false,
  outputTail: pytestTail,
  error: null,
};

function request(overrides: Partial<FixRequest> = {}): FixRequest {
  return {
    taskId: 't1',
    iteration: 2,
    wanted: 3,
    iterationStartedAt: now,
    waitMs: 60_000,
    now,
    workspace: '/data/worktrees/t1',
    testCommand: ['python3', '-m', 'pytest', '-q'],
    failingTests: [],
    recentlyBroken: [],
    lastRun,
    pending: [],
    repository: repository(files),
    allowTestEdits: false,
    tokensLeft: null,
    review: null,
    ...overrides,
  };
}

function submitted(name: string): CandidateHypothesis {
  return {
    hypothesis: { name, edits: [{ path: 'calc.py', content: fixedCalcPy }], delete: [] },
    origin: 'external',
    author: 'token:1',
    submittedAt: new Date(now.getTime() - 1000),
  };
}

function fixer(
  reply: (body: { n?: number }, i: number) => FakeReply,
  options: Partial<LlmFixerOptions> = {},
) {
  const client = new FakeChatClient(reply);
  return {
    client,
    fixer: createLlmFixer({
      client,
      model: 'qwen',
      prices: { inputPerMTokUsd: 1, outputPerMTokUsd: 2 },
      timeoutMs: 500,
      maxPromptTokens: 4000,
      ...options,
    }),
  };
}

const signal = new AbortController().signal;

describe('createLlmFixer', () => {
  it('samples the K hypotheses of an iteration from one prompt, named and attributed', async () => {
    const { client, fixer: llm } = fixer(() => ({
      contents: [
        fixJson('True division', { 'calc.py': fixedCalcPy }),
        fixJson('float(sum)', { 'calc.py': calcPy.replace('sum(values)', 'float(sum(values))') }),
        fixJson('True division', { 'calc.py': fixedCalcPy }),
      ],
      usage: { prompt_tokens: 700, completion_tokens: 90 },
    }));
    expect(llm.name).toBe('llm');
    const decision = await llm.decide(request(), signal);
    expect(client.calls).toHaveLength(1);
    expect(client.calls[0]?.body.n).toBe(3);
    expect(decision).toEqual({
      kind: 'run',
      hypotheses: [
        {
          hypothesis: {
            name: 'llm-2-1-true-division',
            edits: [{ path: 'calc.py', content: fixedCalcPy }],
            delete: [],
          },
          origin: 'llm',
          author: 'fixer:llm',
          submittedAt: now,
        },
        expect.objectContaining({
          hypothesis: expect.objectContaining({ name: 'llm-2-2-float-sum' }) as unknown,
        }) as unknown,
        expect.objectContaining({
          hypothesis: expect.objectContaining({ name: 'llm-2-3-true-division' }) as unknown,
        }) as unknown,
      ],
      rejected: [],
      spend: { tokens: 790, costMicroUsd: 700 * 1 + 90 * 2 },
    });
  });

  it('shows the model the failing output, the named test file and the code it imports', async () => {
    const reads: string[] = [];
    const { client, fixer: llm } = fixer(() => ({
      content: fixJson('x', { 'calc.py': fixedCalcPy }),
    }));
    await llm.decide(request({ wanted: 1, repository: repository(files, reads) }), signal);
    const prompt = client.calls[0]?.body.messages.map((m) => m.content).join('\n') ?? '';
    expect(prompt).toContain('test_calc.py:5: AssertionError');
    expect(prompt).toContain('## File test_calc.py (named in the test output, a test file)');
    expect(prompt).toContain(testCalcPy);
    expect(prompt).toContain('## File calc.py (imported by a file named in the test output)');
    expect(prompt).toContain(calcPy);
    expect(prompt).toContain('Test command (argv): ["python3","-m","pytest","-q"]');
    expect(reads.slice(0, 2)).toEqual(['test_calc.py', 'calc.py']);
  });

  it("shows the model the task's title and problem ahead of the failing output", async () => {
    const { client, fixer: llm } = fixer(() => ({
      content: fixJson('x', { 'calc.py': fixedCalcPy }),
    }));
    const task = { title: 'mean() floors', problem: 'mean([1, 2]) is 1', issueUrl: null };
    await llm.decide(request({ wanted: 1, task }), signal);
    const prompt = client.calls[0]?.body.messages[1]?.content ?? '';
    expect(prompt).toContain('Title: "mean() floors"');
    expect(prompt.indexOf('mean([1, 2]) is 1')).toBeGreaterThan(0);
    expect(prompt.indexOf('mean([1, 2]) is 1')).toBeLessThan(
      prompt.indexOf('test_calc.py:5: AssertionError'),
    );
  });

  it('runs submitted hypotheses first, without asking the model when they are enough', async () => {
    const { client, fixer: llm } = fixer(() => ({ content: 'unused' }));
    const pending = [submitted('a'), submitted('b'), submitted('c'), submitted('d')];
    expect(await llm.decide(request({ pending }), signal)).toEqual({
      kind: 'run',
      hypotheses: pending.slice(0, 3),
    });
    expect(client.calls).toHaveLength(0);
  });

  it('asks only for the rest of K after the submitted ones, with names unique against them', async () => {
    const { client, fixer: llm } = fixer(() => ({
      content: fixJson('fix', { 'calc.py': fixedCalcPy }),
    }));
    const pending = [submitted('llm-2-1-fix')];
    const decision = await llm.decide(request({ pending }), signal);
    expect(client.calls[0]?.body.n).toBe(2);
    expect(
      decision.kind === 'run' ? decision.hypotheses.map((c) => c.hypothesis.name) : [],
    ).toEqual(['llm-2-1-fix', 'llm-2-1-fix-2', 'llm-2-2-fix']);
  });

  it('turns answers invalid twice into rejected samples, keeping the valid ones', async () => {
    const { fixer: llm } = fixer((body) =>
      body.n === 2
        ? { contents: ['rm -rf /', fixJson('ok', { 'calc.py': fixedCalcPy })] }
        : { content: '{}' },
    );
    const decision = await llm.decide(request({ wanted: 2 }), signal);
    expect(decision.kind).toBe('run');
    if (decision.kind !== 'run') return;
    expect(decision.hypotheses.map((c) => c.hypothesis.name)).toEqual(['llm-2-2-ok']);
    expect(decision.rejected).toEqual([
      {
        name: 'llm-sample-1',
        origin: 'llm',
        reason: expect.stringMatching(/^the model's answer was invalid twice: name: /) as string,
      },
    ]);
  });

  it('returns a hypothesis that edits a test file: the loop demotes it, the fixer does not drop it', async () => {
    const weakened = testCalcPy.replace('1.5', '1');
    const { fixer: llm } = fixer(() => ({
      content: fixJson('adjust test', { 'test_calc.py': weakened }),
    }));
    const decision = await llm.decide(request({ wanted: 1, allowTestEdits: false }), signal);
    expect(decision).toMatchObject({
      kind: 'run',
      hypotheses: [
        {
          hypothesis: {
            name: 'llm-2-1-adjust-test',
            edits: [{ path: 'test_calc.py', content: weakened }],
          },
        },
      ],
      rejected: [],
    });
  });

  it('asks for fewer samples when the token budget cannot pay for K prompts', async () => {
    const probe = fixer(() => ({ content: fixJson('x', { 'calc.py': fixedCalcPy }) }));
    await probe.fixer.decide(request({ wanted: 1 }), signal);
    const promptTokens = estimateMessagesTokens(probe.client.calls[0]?.body.messages ?? []);

    const { client, fixer: llm } = fixer(() => ({
      content: fixJson('x', { 'calc.py': fixedCalcPy }),
    }));
    const decision = await llm.decide(request({ tokensLeft: promptTokens * 2 + 1 }), signal);
    expect(client.calls[0]?.body.n).toBe(2);
    expect(decision.kind === 'run' ? decision.hypotheses : []).toHaveLength(2);
  });

  it('gives up when not even one prompt fits the budget, unless submitted hypotheses can run', async () => {
    const { client, fixer: llm } = fixer(() => ({ content: 'unused' }));
    const decision = await llm.decide(request({ tokensLeft: 50 }), signal);
    expect(decision).toEqual({
      kind: 'give_up',
      reason: expect.stringMatching(
        /^the LLM token budget of the task is spent \(50 tokens left, one prompt needs about \d+\)$/,
      ) as string,
    });
    const pending = [submitted('mine')];
    expect(await llm.decide(request({ tokensLeft: 0, pending }), signal)).toEqual({
      kind: 'run',
      hypotheses: pending,
    });
    expect(client.calls).toHaveLength(0);
  });

  it('adds up every call, retries included, and estimates calls without usage', async () => {
    const answer = fixJson('ok', { 'calc.py': fixedCalcPy });
    const { client, fixer: llm } = fixer(
      (_, i) =>
        i === 0
          ? { content: 'oops', usage: { prompt_tokens: 1000, completion_tokens: 1 } }
          : { content: answer },
      { prices: { inputPerMTokUsd: 0.5, outputPerMTokUsd: 1.5 } },
    );
    const decision = await llm.decide(request({ wanted: 1 }), signal);
    expect(client.calls).toHaveLength(2);
    // The retry reported no usage: its prompt and answer are estimated at 4 characters a token.
    const retryPrompt = estimateMessagesTokens(client.calls[1]?.body.messages ?? []);
    const retryAnswer = Math.ceil(answer.length / 4);
    expect(retryPrompt).toBeGreaterThan(250);
    expect(decision).toMatchObject({
      kind: 'run',
      spend: {
        tokens: 1000 + 1 + retryPrompt + retryAnswer,
        costMicroUsd: Math.round((1000 + retryPrompt) * 0.5 + (1 + retryAnswer) * 1.5),
      },
    });
  });

  it('rejects a sample the model does not answer in time', async () => {
    const { fixer: llm } = fixer(() => ({ hang: true }), { timeoutMs: 80 });
    const decision = await llm.decide(request({ wanted: 1 }), signal);
    expect(decision).toMatchObject({
      kind: 'run',
      hypotheses: [],
      rejected: [
        { name: 'llm-sample-1', origin: 'llm', reason: 'the model did not answer within 0.1 s' },
      ],
    });
  });

  describe('in a review round', () => {
    const review: ReviewRequest = {
      round: 1,
      summaries: [{ author: 'alice', body: 'Looks right, two nits.' }],
      threads: [
        {
          id: 'th-a',
          path: 'calc.py',
          side: 'new',
          startLine: 2,
          endLine: 2,
          lines: ['    return sum(values) / len(values)'],
          comments: [{ author: 'alice', body: 'What about an empty list?' }],
        },
        {
          id: 'th-b',
          path: 'calc.py',
          side: 'new',
          startLine: 1,
          endLine: 2,
          lines: ['def mean(values):', '    return sum(values) / len(values)'],
          comments: [{ author: 'bob', body: 'Add a docstring.' }],
        },
      ],
    };
    const green: RunSummary = { ...lastRun, exitCode: 0, failed: 0, green: true, outputTail: '' };
    const withReplies = (name: string, replies: { threadId: string; body: string }[]): string =>
      JSON.stringify({ ...JSON.parse(fixJson(name, { 'calc.py': fixedCalcPy })), replies });

    it('shows the model the threads and returns the replies with the hypothesis', async () => {
      const { client, fixer: llm } = fixer(() => ({
        content: withReplies('guard empty', [
          { threadId: 'th-b', body: 'Added a docstring.' },
          { threadId: 'th-a', body: ' Returns 0.0 for an empty list now. ' },
          { threadId: 'th-zzz', body: 'a thread nobody opened' },
        ]),
      }));
      const decision = await llm.decide(
        request({ wanted: 1, review, lastRun: green, failingTests: [] }),
        signal,
      );
      const [system, user] = client.calls[0]?.body.messages.map((m) => m.content) ?? [];
      expect(system).toContain('"replies": [{"threadId"');
      expect(user).toContain('review round 1');
      expect(user).toContain('Summary (alice): Looks right, two nits.');
      expect(user).toContain(
        'Thread th-a — calc.py:2 (new)\n    2 |     return sum(values) / len(values)',
      );
      expect(user).toContain('  alice: What about an empty list?');
      expect(user).toContain('Thread th-b — calc.py:1-2 (new)\n    1 | def mean(values):');
      expect(user).toContain('  bob: Add a docstring.');
      expect(decision).toEqual({
        kind: 'run',
        hypotheses: [
          {
            hypothesis: {
              name: 'llm-2-1-guard-empty',
              edits: [{ path: 'calc.py', content: fixedCalcPy }],
              delete: [],
            },
            origin: 'llm',
            author: 'fixer:llm',
            submittedAt: now,
          },
        ],
        rejected: [],
        spend: expect.anything() as unknown,
        // In the threads' order; the reply to an unknown thread is dropped.
        replies: [
          {
            threadId: 'th-a',
            body: 'Returns 0.0 for an empty list now.',
            hypothesis: 'llm-2-1-guard-empty',
          },
          { threadId: 'th-b', body: 'Added a docstring.', hypothesis: 'llm-2-1-guard-empty' },
        ],
      });
    });

    it('returns every sample’s replies, each naming its hypothesis (the loop posts the winner’s)', async () => {
      const { fixer: llm } = fixer(() => ({
        contents: [
          fixJson('no replies', { 'calc.py': fixedCalcPy }),
          withReplies('second', [{ threadId: 'th-b', body: 'docstring added (2)' }]),
          withReplies('third', [
            { threadId: 'th-a', body: 'empty list handled (3)' },
            { threadId: 'th-b', body: 'docstring added (3)' },
          ]),
        ],
      }));
      const decision = await llm.decide(request({ review }), signal);
      if (decision.kind !== 'run') throw new Error(`expected run, got ${decision.kind}`);
      const names = decision.hypotheses.map((c) => c.hypothesis.name);
      expect(decision.replies).toEqual([
        { threadId: 'th-a', body: 'empty list handled (3)', hypothesis: names[2] },
        { threadId: 'th-b', body: 'docstring added (2)', hypothesis: names[1] },
        { threadId: 'th-b', body: 'docstring added (3)', hypothesis: names[2] },
      ]);
      expect(decision.hypotheses).toHaveLength(3);
      for (const candidate of decision.hypotheses) {
        expect(Object.keys(candidate.hypothesis).sort()).toEqual(['delete', 'edits', 'name']);
      }
    });

    it('retries an answer whose reply is too long, and accepts one without replies', async () => {
      const { client, fixer: llm } = fixer((_, i) => ({
        content:
          i === 0
            ? withReplies('long', [{ threadId: 'th-a', body: 'x'.repeat(4001) }])
            : fixJson('short', { 'calc.py': fixedCalcPy }),
      }));
      const decision = await llm.decide(request({ wanted: 1, review }), signal);
      expect(client.calls).toHaveLength(2);
      expect(client.lastMessage(1)).toContain(
        'replies[0].body: is too long: a reply may hold at most 4000 characters',
      );
      expect(decision).toMatchObject({
        kind: 'run',
        hypotheses: [{ hypothesis: { name: 'llm-2-1-short' } }],
        replies: [],
      });
    });

    it('has no replies outside a review round, even when the model sends some', async () => {
      const { client, fixer: llm } = fixer(() => ({
        content: withReplies('fix', [{ threadId: 'th-a', body: 'unasked' }]),
      }));
      const decision = await llm.decide(request({ wanted: 1 }), signal);
      const prompt = client.calls[0]?.body.messages.map((m) => m.content).join('\n') ?? '';
      expect(prompt).not.toContain('replies');
      expect(decision.kind).toBe('run');
      expect(decision.kind === 'run' && 'replies' in decision).toBe(false);
    });
  });

  it('stops when the step is aborted', async () => {
    const { fixer: llm } = fixer(() => ({ hang: true }), { timeoutMs: 10_000 });
    const controller = new AbortController();
    const decided = llm.decide(request(), controller.signal);
    setTimeout(() => {
      controller.abort(new Error('cancelled'));
    }, 20);
    await expect(decided).rejects.toThrow('cancelled');
  });
});
