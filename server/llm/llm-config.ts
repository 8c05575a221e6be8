import { z } from 'zod';
import type { TokenPrices } from '../engine/fixers';
import { redact } from '../redact-url';
import { AppError } from '../errors/app-error';

/**
 * Where the LLM fixer and reviewer send their requests: one OpenAI-compatible endpoint (OpenAI,
 * llama.cpp's server, vLLM, Ollama …), parsed once from the environment by `loadLlmConfig`.
 */
export interface LlmConfig {
  /** e.g. `http://127.0.0.1:8080/v1` (llama.cpp) or `https://api.openai.com/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  /** null: the server needs none (local servers). */
  readonly apiKey: string | null;
  readonly prices: TokenPrices;
  /** Per model request. */
  readonly timeoutMs: number;
  readonly maxPromptTokens: number;
  /** The token cap a task gets unless it sets its own. */
  readonly taskTokenBudget: number;
  /** Set: the reviewer is enabled, on the same endpoint. */
  readonly reviewerModel: string | null;
}

export const llmEnvVariables = [
  'SHADOWBOX_LLM_BASE_URL',
  'SHADOWBOX_LLM_MODEL',
  'SHADOWBOX_LLM_API_KEY',
  'SHADOWBOX_LLM_PRICE_INPUT_PER_MTOK',
  'SHADOWBOX_LLM_PRICE_OUTPUT_PER_MTOK',
  'SHADOWBOX_LLM_TIMEOUT_SECS',
  'SHADOWBOX_LLM_MAX_PROMPT_TOKENS',
  'SHADOWBOX_LLM_TASK_TOKEN_BUDGET',
  'SHADOWBOX_REVIEWER_MODEL',
] as const;

type LlmEnvVariable = (typeof llmEnvVariables)[number];

export const llmDefaults = {
  timeoutSecs: 120,
  maxPromptTokens: 12_000,
  taskTokenBudget: 200_000,
} as const;

// `VAR=` means "not set", as in server/env.ts.
const optional = z
  .string()
  .transform((value) => value.trim())
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const decimal = /^\d+(?:\.\d+)?$/;

const price = optional.pipe(
  z
    .string()
    .regex(decimal, 'must be a price in US dollars per million tokens, e.g. 0.15')
    .transform(Number)
    .optional(),
);

const wholeNumber = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return optional.pipe(
    z
      .string()
      .regex(/^\d+$/, message)
      .transform(Number)
      .refine((value) => value >= min && value <= max, message)
      .optional(),
  );
};

const name = optional.pipe(
  z
    .string()
    .max(200, 'must be at most 200 characters')
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters')
    .optional(),
);

const schema = z
  .object({
    SHADOWBOX_LLM_BASE_URL: optional.pipe(
      z
        .string()
        .refine((value) => {
          try {
            const url = new URL(value);
            return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
          } catch {
            return false;
          }
        }, 'must be an http:// or https:// URL, e.g. http://127.0.0.1:8080/v1 or https://api.openai.com/v1')
        .optional(),
    ),
    SHADOWBOX_LLM_MODEL: name,
    SHADOWBOX_LLM_API_KEY: optional,
    SHADOWBOX_LLM_PRICE_INPUT_PER_MTOK: price,
    SHADOWBOX_LLM_PRICE_OUTPUT_PER_MTOK: price,
    SHADOWBOX_LLM_TIMEOUT_SECS: optional.pipe(
      z
        .string()
        .regex(decimal, 'must be a number of seconds from 1 to 3600')
        .transform(Number)
        .refine(
          (value) => value >= 1 && value <= 3600,
          'must be a number of seconds from 1 to 3600',
        )
        .optional(),
    ),
    SHADOWBOX_LLM_MAX_PROMPT_TOKENS: wholeNumber(500, 10_000_000),
    SHADOWBOX_LLM_TASK_TOKEN_BUDGET: wholeNumber(1, 1_000_000_000_000),
    SHADOWBOX_REVIEWER_MODEL: name,
  })
  .superRefine((values, ctx) => {
    const needs = (variable: LlmEnvVariable, because: LlmEnvVariable): void => {
      ctx.addIssue({ code: 'custom', path: [variable], message: `must be set when ${because} is` });
    };
    if (values.SHADOWBOX_LLM_BASE_URL !== undefined && values.SHADOWBOX_LLM_MODEL === undefined) {
      needs('SHADOWBOX_LLM_MODEL', 'SHADOWBOX_LLM_BASE_URL');
    }
    if (values.SHADOWBOX_LLM_BASE_URL === undefined) {
      if (values.SHADOWBOX_LLM_MODEL !== undefined) {
        needs('SHADOWBOX_LLM_BASE_URL', 'SHADOWBOX_LLM_MODEL');
      } else if (values.SHADOWBOX_REVIEWER_MODEL !== undefined) {
        needs('SHADOWBOX_LLM_BASE_URL', 'SHADOWBOX_REVIEWER_MODEL');
      }
    }
  });

/**
 * The LLM configuration from the environment, or null when neither `SHADOWBOX_LLM_BASE_URL` nor
 * `SHADOWBOX_LLM_MODEL` is set (no LLM fixer then). Every bad value is reported at once, each
 * naming its variable; the API key is never echoed.
 */
export function loadLlmConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): LlmConfig | null {
  const input = Object.fromEntries(llmEnvVariables.map((variable) => [variable, env[variable]]));
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const variables = [...new Set(parsed.error.issues.map((issue) => String(issue.path[0])))];
    const problems = parsed.error.issues.map((issue) => {
      const variable = String(issue.path[0]);
      return `${variable}=${shown(variable, env[variable])} ${issue.message}`;
    });
    throw new AppError('INVALID_ARGUMENT', `Invalid environment: ${problems.join('; ')}`, {
      details: { variables },
    });
  }
  const values = parsed.data;
  if (values.SHADOWBOX_LLM_BASE_URL === undefined || values.SHADOWBOX_LLM_MODEL === undefined) {
    return null;
  }
  return {
    baseUrl: values.SHADOWBOX_LLM_BASE_URL.replace(/\/+$/, ''),
    model: values.SHADOWBOX_LLM_MODEL,
    apiKey: values.SHADOWBOX_LLM_API_KEY ?? null,
    prices: {
      inputPerMTokUsd: values.SHADOWBOX_LLM_PRICE_INPUT_PER_MTOK ?? 0,
      outputPerMTokUsd: values.SHADOWBOX_LLM_PRICE_OUTPUT_PER_MTOK ?? 0,
    },
    timeoutMs: Math.round((values.SHADOWBOX_LLM_TIMEOUT_SECS ?? llmDefaults.timeoutSecs) * 1000),
    maxPromptTokens: values.SHADOWBOX_LLM_MAX_PROMPT_TOKENS ?? llmDefaults.maxPromptTokens,
    taskTokenBudget: values.SHADOWBOX_LLM_TASK_TOKEN_BUDGET ?? llmDefaults.taskTokenBudget,
    reviewerModel: values.SHADOWBOX_REVIEWER_MODEL ?? null,
  };
}

function shown(variable: string, value: string | undefined): string {
  if (variable === 'SHADOWBOX_LLM_API_KEY') return '"***"';
  if (variable === 'SHADOWBOX_LLM_BASE_URL') return JSON.stringify(redact(value ?? ''));
  return JSON.stringify(value ?? '');
}
