import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixJson } from '../test-support/fake-chat';
import type { FixRequest, RepositoryView } from '../engine/loop/fixer';
import { summarize } from '../engine/loop/task-step';
import type { RunSummary } from '../engine/loop/task-events';
import { diffFlags, isTestPath } from '../engine/review/diff-flags';
import { createShadowRunner, type ShadowRunner } from '../engine/shadow';
import {
  startFakeOpenAi,
  requestText,
  type FakeOpenAi,
  type FakeOpenAiOptions,
  type FakeScript,
} from '../test-support/fake-openai';
import { copyProject, editOf, fixtureProject } from '../test-support/projects';
import { createLlmAdapters, type LlmAdapters } from './llm-adapters';
import { loadLlmConfig } from './llm-config';

// The LLM fixer and reviewer over real HTTP, through the official `openai` client, against a
// scripted OpenAI-compatible server; the right fix then runs in a real shadow.

const project = fixtureProject('pytest-calc');
const right = project.hypotheses.right;
const wrong = project.hypotheses.wrong;
const answerOf = (h: typeof right): string =>
  fixJson(h.name, Object.fromEntries(h.edits.map((e) => [e.path, e.content])));

let fake: FakeOpenAi | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

async function adapters(
  script: FakeScript,
  env: Record<string, string> = {},
  options: FakeOpenAiOptions = {},
): Promise<{ llm: LlmAdapters; server: FakeOpenAi }> {
  const server = await startFakeOpenAi(script, options);
  fake = server;
  const config = loadLlmConfig({
    SHADOWBOX_LLM_BASE_URL: server.url,
    SHADOWBOX_LLM_MODEL: 'fake-coder',
    SHADOWBOX_LLM_TIMEOUT_SECS: '5',
    ...env,
  });
  if (config === null) throw new Error('the LLM configuration is missing');
  return { llm: createLlmAdapters(config), server };
}

function directoryView(root: string): RepositoryView {
  const list = async (relative: string): Promise<string[]> => {
    const entries = await readdir(path.join(root, relative), { withFileTypes: true });
    const files: string[] = [];
    for (const entry of entries) {
      if (['.git', '__pycache__', '.pytest_cache'].includes(entry.name)) continue;
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) files.push(...(await list(name)));
      else files.push(name);
    }
    return files.sort();
  };
  return {
    listFiles: () => list(''),
    readFile: (file) => readFile(path.join(root, file), 'utf8'),
  };
}

const signal = new AbortController().signal;

describe('the LLM fixer against an OpenAI-compatible server', () => {
  let workspace: string;
  let dataDir: string;
  let runner: ShadowRunner;
  let baseline: RunSummary;

  beforeAll(async () => {
    workspace = await copyProject(project);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sbx-llm-data-'));
    runner = await createShadowRunner({ dataDir });
    const report = await runner.run({
      workspace,
      command: project.testCommand,
      hypotheses: [{ name: 'baseline', edits: [], delete: [] }],
      timeoutMs: 120_000,
    });
    const outcome = report.hypotheses[0];
    if (outcome === undefined) throw new Error('no baseline outcome');
    baseline = summarize(outcome);
  });

  afterAll(async () => {
    await runner.settled();
    await rm(path.dirname(workspace), { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  const request = (overrides: Partial<FixRequest> = {}): FixRequest => ({
    taskId: 't1',
    iteration: 1,
    wanted: 1,
    iterationStartedAt: new Date(),
    waitMs: 60_000,
    now: new Date(),
    workspace,
    testCommand: project.testCommand,
    lastRun: baseline,
    failingTests: [],
    recentlyBroken: [],
    pending: [],
    repository: directoryView(workspace),
    allowTestEdits: false,
    tokensLeft: null,
    review: null,
    ...overrides,
  });

  it('turns the right answer into a hypothesis that passes in a shadow; the wrong one fails', async () => {
    expect(baseline.failed).toBe(1);
    const { llm, server } = await adapters((req) =>
      // Answer only a prompt that shows the failure and the code under test.
      requestText(req).includes('test_calc.py:17: AssertionError') &&
      requestText(req).includes('return sum(values) // len(values)')
        ? {
            contents: [answerOf(right), answerOf(wrong)],
            usage: { prompt_tokens: 900, completion_tokens: 150 },
          }
        : { status: 400, error: 'the prompt lacks the failure or the code' },
    );
    const decision = await llm.fixer.decide(request({ wanted: 2 }), signal);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toMatchObject({
      model: 'fake-coder',
      n: 2,
      response_format: { type: 'json_object' },
    });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer unused');
    expect(decision.kind).toBe('run');
    if (decision.kind !== 'run') return;
    expect(decision.rejected).toEqual([]);
    expect(decision.spend).toEqual({ tokens: 1050, costMicroUsd: 0 });
    const names = decision.hypotheses.map((c) => c.hypothesis.name);
    expect(names).toEqual(['llm-1-1-true-division', 'llm-1-2-rounded-mean']);
    expect(editOf(decision.hypotheses[0]!.hypothesis, 'calc.py')).toBe(editOf(right, 'calc.py'));

    const report = await runner.run({
      workspace,
      command: project.testCommand,
      hypotheses: decision.hypotheses.map((c) => c.hypothesis),
      timeoutMs: 120_000,
    });
    expect(report.winner).toBe('llm-1-1-true-division');
    const outcome = (name: string) => report.hypotheses.find((h) => h.name === name);
    expect(outcome('llm-1-1-true-division')).toMatchObject({ failed: 0, passed: 4 });
    expect(outcome('llm-1-2-rounded-mean')).toMatchObject({ failed: 1 });
  });

  it('rejects a sample whose answer is malformed twice, with the reason', async () => {
    const { llm, server } = await adapters([
      { content: 'Sure! Change // to / in calc.py.' },
      { content: '{"name": "fix", "edits": [{"path": "calc.py"' },
    ]);
    const decision = await llm.fixer.decide(request(), signal);
    expect(server.requests).toHaveLength(2);
    expect(decision).toEqual({
      kind: 'run',
      hypotheses: [],
      rejected: [
        {
          name: 'llm-sample-1',
          origin: 'llm',
          reason: expect.stringMatching(
            /^the model's answer was invalid twice: the answer is not a JSON object/,
          ) as string,
        },
      ],
      spend: expect.objectContaining({ tokens: expect.any(Number) as number }) as unknown,
    });
  });

  it('retries a malformed answer once with the validation error, and keeps the valid retry', async () => {
    const { llm, server } = await adapters([
      { content: fixJson('escape', { '../outside.py': 'x' }) },
      { content: answerOf(right) },
    ]);
    const decision = await llm.fixer.decide(request(), signal);
    expect(decision).toMatchObject({
      kind: 'run',
      hypotheses: [{ hypothesis: { name: 'llm-1-1-true-division' } }],
      rejected: [],
    });
    const retry = server.requests[1]?.body.messages ?? [];
    expect(retry.at(-2)).toEqual({
      role: 'assistant',
      content: fixJson('escape', { '../outside.py': 'x' }),
    });
    expect(retry.at(-1)?.content).toContain(
      "Your answer was not valid: edits[0].path: path '../outside.py' contains a '..' segment",
    );
  });

  it('returns a hypothesis that edits a test file, for the loop to demote', async () => {
    const weakened = (await readFile(path.join(workspace, 'test_calc.py'), 'utf8')).replace(
      '== 1.5',
      '== 1',
    );
    const { llm } = await adapters([
      { content: fixJson('expect floor', { 'test_calc.py': weakened }) },
    ]);
    const decision = await llm.fixer.decide(request({ allowTestEdits: false }), signal);
    expect(decision.kind).toBe('run');
    if (decision.kind !== 'run') return;
    const [candidate] = decision.hypotheses;
    expect(candidate?.hypothesis.name).toBe('llm-1-1-expect-floor');
    expect(candidate?.hypothesis.edits.map((e) => e.path).every(isTestPath)).toBe(true);
  });

  it('rejects a sample the server does not answer within the timeout, without waiting for it', async () => {
    const { llm, server } = await adapters([{ content: answerOf(right), delayMs: 10_000 }], {
      SHADOWBOX_LLM_TIMEOUT_SECS: '1',
    });
    const started = Date.now();
    const decision = await llm.fixer.decide(request(), signal);
    const elapsed = Date.now() - started;
    expect(decision).toMatchObject({
      kind: 'run',
      hypotheses: [],
      rejected: [{ name: 'llm-sample-1', reason: 'the model did not answer within 1 s' }],
    });
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(2500);
    expect(server.requests).toHaveLength(1);
  });

  it('sums the usage of parallel requests when the server refuses n, and prices it', async () => {
    const { llm, server } = await adapters(
      (req) => ({
        content: answerOf(right),
        usage: { prompt_tokens: 1000 + req.index, completion_tokens: 200 },
      }),
      {
        SHADOWBOX_LLM_API_KEY: 'sk-test',
        SHADOWBOX_LLM_PRICE_INPUT_PER_MTOK: '2.5',
        SHADOWBOX_LLM_PRICE_OUTPUT_PER_MTOK: '10',
      },
      { refuseN: true },
    );
    const decision = await llm.fixer.decide(request({ wanted: 3 }), signal);
    // One refused request with n=3, then three with n=1.
    expect(server.requests.map((r) => r.body.n ?? 1)).toEqual([3, 1, 1, 1]);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-test');
    const prompt = [1, 2, 3].reduce((sum, i) => sum + 1000 + i, 0);
    expect(decision).toMatchObject({
      kind: 'run',
      spend: { tokens: prompt + 600, costMicroUsd: Math.round(prompt * 2.5 + 600 * 10) },
    });
    expect(decision.kind === 'run' ? decision.hypotheses : []).toHaveLength(3);
  });

  it('drops JSON mode for a server that refuses response_format', async () => {
    const { llm, server } = await adapters(
      [{ content: answerOf(right) }, { content: answerOf(right) }],
      {},
      {
        refuseResponseFormat: true,
      },
    );
    const first = await llm.fixer.decide(request(), signal);
    expect(first.kind === 'run' ? first.hypotheses.length : 0).toBe(1);
    await llm.fixer.decide(request(), signal);
    expect(server.requests.map((r) => r.body.response_format?.type ?? null)).toEqual([
      'json_object',
      null,
      null,
    ]);
  });

  it('gives up without a request when the task budget cannot pay for one prompt', async () => {
    const { llm, server } = await adapters([{ content: answerOf(right) }]);
    const decision = await llm.fixer.decide(request({ tokensLeft: 100 }), signal);
    expect(decision).toEqual({
      kind: 'give_up',
      reason: expect.stringMatching(
        /^the LLM token budget of the task is spent \(100 tokens left/,
      ) as string,
    });
    expect(server.requests).toHaveLength(0);
  });
});

describe('the LLM reviewer against an OpenAI-compatible server', () => {
  const diff = [
    'diff --git a/calc.py b/calc.py',
    'index 1111111..2222222 100644',
    '--- a/calc.py',
    '+++ b/calc.py',
    '@@ -1 +1 @@',
    '-    return sum(values) // len(values)',
    '+    return sum(values) / len(values)',
    '',
  ].join('\n');
  const input = {
    diff,
    flags: diffFlags(diff),
    testCommand: project.testCommand,
    baseline: null,
    final: null,
  };

  it('parses the verdict of the reviewer model', async () => {
    const { llm, server } = await adapters(
      [
        {
          content: JSON.stringify({
            verdict: 'looks_good',
            comment: 'True division fixes mean().',
          }),
          usage: { prompt_tokens: 400, completion_tokens: 12 },
        },
      ],
      { SHADOWBOX_REVIEWER_MODEL: 'fake-judge' },
    );
    const review = await llm.reviewer?.review(input, signal);
    expect(review).toEqual({
      verdict: 'looks_good',
      comment: 'True division fixes mean().',
      spend: { tokens: 412, costMicroUsd: 0 },
    });
    expect(server.requests[0]?.body.model).toBe('fake-judge');
    expect(requestText(server.requests[0]!)).toContain(diff);
  });

  it('is unsure when the review stays invalid', async () => {
    const { llm, server } = await adapters(
      [
        { content: JSON.stringify({ verdict: 'approve', comment: 'ship it' }) },
        { content: 'APPROVED' },
      ],
      { SHADOWBOX_REVIEWER_MODEL: 'fake-judge' },
    );
    const review = await llm.reviewer?.review(input, signal);
    expect(review?.verdict).toBe('unsure');
    expect(review?.comment).toMatch(
      /^The automated review failed: the model's answer was invalid twice: /,
    );
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.body.messages?.at(-1)?.content).toMatch(
      /^Your answer was not valid: verdict: /,
    );
  });
});
