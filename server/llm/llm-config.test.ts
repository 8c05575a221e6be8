import { describe, expect, it } from 'vitest';
import { isAppError } from '../errors/app-error';
import { FakeChatClient } from '../test-support/fake-chat';
import { createLlmAdapters } from './llm-adapters';
import { loadLlmConfig } from './llm-config';

const base = {
  SHADOWBOX_LLM_BASE_URL: 'http://127.0.0.1:8080/v1',
  SHADOWBOX_LLM_MODEL: 'qwen2.5-coder',
};

function failure(env: Record<string, string>): { message: string; variables: unknown } {
  try {
    loadLlmConfig(env);
  } catch (error) {
    if (!isAppError(error)) throw error;
    expect(error.code).toBe('INVALID_ARGUMENT');
    return { message: error.message, variables: error.details?.variables };
  }
  throw new Error('expected loadLlmConfig to throw');
}

describe('loadLlmConfig', () => {
  it('is null when no endpoint is configured (blank counts as unset)', () => {
    expect(loadLlmConfig({})).toBeNull();
    expect(loadLlmConfig({ SHADOWBOX_LLM_BASE_URL: ' ', SHADOWBOX_LLM_MODEL: '' })).toBeNull();
    expect(loadLlmConfig({ SHADOWBOX_LLM_PRICE_INPUT_PER_MTOK: '1' })).toBeNull();
  });

  it('applies the defaults', () => {
    expect(loadLlmConfig(base)).toEqual({
      baseUrl: 'http://127.0.0.1:8080/v1',
      model: 'qwen2.5-coder',
      apiKey: null,
      prices: { inputPerMTokUsd: 0, outputPerMTokUsd: 0 },
      timeoutMs: 120_000,
      maxPromptTokens: 12_000,
      taskTokenBudget: 200_000,
      reviewerModel: null,
    });
  });

  it('reads every variable', () => {
    expect(
      loadLlmConfig({
        SHADOWBOX_LLM_BASE_URL: 'https://api.openai.com/v1/',
        SHADOWBOX_LLM_MODEL: ' gpt-4.1-mini ',
        SHADOWBOX_LLM_API_KEY: 'sk-test',
        SHADOWBOX_LLM_PRICE_INPUT_PER_MTOK: '0.40',
        SHADOWBOX_LLM_PRICE_OUTPUT_PER_MTOK: '1.6',
        SHADOWBOX_LLM_TIMEOUT_SECS: '2.5',
        SHADOWBOX_LLM_MAX_PROMPT_TOKENS: '30000',
        SHADOWBOX_LLM_TASK_TOKEN_BUDGET: '1000000',
        SHADOWBOX_REVIEWER_MODEL: 'gpt-4.1',
      }),
    ).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4.1-mini',
      apiKey: 'sk-test',
      prices: { inputPerMTokUsd: 0.4, outputPerMTokUsd: 1.6 },
      timeoutMs: 2500,
      maxPromptTokens: 30_000,
      taskTokenBudget: 1_000_000,
      reviewerModel: 'gpt-4.1',
    });
  });

  it('names each bad variable and its value, all at once', () => {
    const { message, variables } = failure({
      ...base,
      SHADOWBOX_LLM_PRICE_INPUT_PER_MTOK: '-1',
      SHADOWBOX_LLM_TIMEOUT_SECS: '0',
      SHADOWBOX_LLM_MAX_PROMPT_TOKENS: '12k',
      SHADOWBOX_LLM_TASK_TOKEN_BUDGET: '0',
    });
    expect(message).toBe(
      'Invalid environment: ' +
        'SHADOWBOX_LLM_PRICE_INPUT_PER_MTOK="-1" must be a price in US dollars per million tokens, e.g. 0.15; ' +
        'SHADOWBOX_LLM_TIMEOUT_SECS="0" must be a number of seconds from 1 to 3600; ' +
        'SHADOWBOX_LLM_MAX_PROMPT_TOKENS="12k" must be a whole number from 500 to 10000000; ' +
        'SHADOWBOX_LLM_TASK_TOKEN_BUDGET="0" must be a whole number from 1 to 1000000000000',
    );
    expect(variables).toEqual([
      'SHADOWBOX_LLM_PRICE_INPUT_PER_MTOK',
      'SHADOWBOX_LLM_TIMEOUT_SECS',
      'SHADOWBOX_LLM_MAX_PROMPT_TOKENS',
      'SHADOWBOX_LLM_TASK_TOKEN_BUDGET',
    ]);
  });

  it('refuses a base URL that is not http(s), without echoing a password', () => {
    expect(failure({ ...base, SHADOWBOX_LLM_BASE_URL: 'ftp://host/v1' }).message).toMatch(
      /^Invalid environment: SHADOWBOX_LLM_BASE_URL="ftp:\/\/host\/v1" must be an http:\/\/ or https:\/\/ URL/,
    );
    expect(failure({ ...base, SHADOWBOX_LLM_BASE_URL: '127.0.0.1:8080' }).variables).toEqual([
      'SHADOWBOX_LLM_BASE_URL',
    ]);
    const secret = failure({ ...base, SHADOWBOX_LLM_BASE_URL: 'ftp://user:hunter2@host/v1' });
    expect(secret.message).not.toContain('hunter2');
    expect(secret.message).toContain('ftp://user:***@host/v1');
  });

  it('needs the base URL and the model together, and the base URL for a reviewer', () => {
    expect(failure({ SHADOWBOX_LLM_BASE_URL: base.SHADOWBOX_LLM_BASE_URL }).message).toBe(
      'Invalid environment: SHADOWBOX_LLM_MODEL="" must be set when SHADOWBOX_LLM_BASE_URL is',
    );
    expect(failure({ SHADOWBOX_LLM_MODEL: 'm' }).message).toBe(
      'Invalid environment: SHADOWBOX_LLM_BASE_URL="" must be set when SHADOWBOX_LLM_MODEL is',
    );
    expect(failure({ SHADOWBOX_REVIEWER_MODEL: 'm' }).variables).toEqual([
      'SHADOWBOX_LLM_BASE_URL',
    ]);
  });

  it('never echoes the API key', () => {
    const { message } = failure({
      ...base,
      SHADOWBOX_LLM_API_KEY: 'sk-secret',
      SHADOWBOX_LLM_MODEL: 'bad\u0007model',
    });
    expect(message).not.toContain('sk-secret');
    expect(message).toContain('SHADOWBOX_LLM_MODEL');
  });
});

describe('createLlmAdapters', () => {
  const config = loadLlmConfig({ ...base, SHADOWBOX_LLM_TASK_TOKEN_BUDGET: '5000' });
  if (config === null) throw new Error('config expected');

  it('builds the llm fixer and the task budget, and no reviewer unless configured', () => {
    const adapters = createLlmAdapters(config, new FakeChatClient(() => ({ content: '' })));
    expect(adapters.fixer.name).toBe('llm');
    expect(adapters.reviewer).toBeNull();
    expect(adapters.defaultTaskTokenBudget).toBe(5000);
  });

  it('builds the reviewer on the same endpoint with its own model', async () => {
    const client = new FakeChatClient(() => ({
      content: JSON.stringify({ verdict: 'looks_good', comment: 'fine' }),
    }));
    const adapters = createLlmAdapters({ ...config, reviewerModel: 'judge' }, client);
    const review = await adapters.reviewer?.review(
      {
        diff: '',
        flags: {
          files: 0,
          additions: 0,
          deletions: 0,
          bytes: 0,
          testFiles: [],
          deletedTests: [],
          modeChanges: [],
          binaryFiles: [],
          symlinks: [],
          hiddenCharacters: [],
          large: false,
        },
        testCommand: ['true'],
        baseline: null,
        final: null,
      },
      new AbortController().signal,
    );
    expect(review?.verdict).toBe('looks_good');
    expect(client.calls[0]?.body.model).toBe('judge');
  });

  it('builds a real client when none is given', () => {
    expect(createLlmAdapters(config).fixer.name).toBe('llm');
  });
});
