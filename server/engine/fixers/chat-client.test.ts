import { describe, expect, it } from 'vitest';
import {
  SpendMeter,
  costMicroUsd,
  estimateMessagesTokens,
  estimateTokens,
  formatSeconds,
} from './chat-client';

describe('token estimates', () => {
  it('counts about four characters per token, rounding up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abc')).toBe(1);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(
      estimateMessagesTokens([
        { role: 'system', content: 'x'.repeat(8) },
        { role: 'user', content: 'y'.repeat(9) },
      ]),
    ).toBe(2 + 3);
  });
});

describe('costMicroUsd', () => {
  it('is tokens times the price per million tokens, in micro-USD, rounded once', () => {
    // 1,000 prompt tokens at $2.50/MTok = $0.0025 = 2,500 µUSD; 200 at $10/MTok = 2,000 µUSD.
    expect(costMicroUsd(1000, 200, { inputPerMTokUsd: 2.5, outputPerMTokUsd: 10 })).toBe(4500);
    expect(costMicroUsd(3, 1, { inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6 })).toBe(1);
    expect(costMicroUsd(3, 0, { inputPerMTokUsd: 0.15, outputPerMTokUsd: 0.6 })).toBe(0);
    expect(costMicroUsd(5000, 5000, { inputPerMTokUsd: 0, outputPerMTokUsd: 0 })).toBe(0);
  });
});

describe('SpendMeter', () => {
  const prices = { inputPerMTokUsd: 1, outputPerMTokUsd: 4 };
  const messages = [{ role: 'user' as const, content: 'x'.repeat(40) }];

  it('sums the usage the server reports over calls', () => {
    const meter = new SpendMeter();
    meter.addCall({ prompt_tokens: 100, completion_tokens: 30 }, messages, ['ignored']);
    meter.addCall({ prompt_tokens: 120, completion_tokens: 50 }, messages, ['ignored']);
    expect(meter.spend(prices)).toEqual({ tokens: 300, costMicroUsd: 220 * 1 + 80 * 4 });
  });

  it('estimates from the text when the server reports no usage, every choice counted', () => {
    const meter = new SpendMeter();
    meter.addCall(null, messages, ['y'.repeat(8), 'z'.repeat(12)]);
    meter.addCall(undefined, messages, ['']);
    expect(meter.promptTokens).toBe(20);
    expect(meter.completionTokens).toBe(5);
    expect(meter.spend(prices)).toEqual({ tokens: 25, costMicroUsd: 20 + 20 });
  });

  it('counts the prompt of a request that timed out', () => {
    const meter = new SpendMeter();
    meter.addUnanswered(messages);
    expect(meter.spend(prices)).toEqual({ tokens: 10, costMicroUsd: 10 });
  });
});

describe('formatSeconds', () => {
  it('names whole and fractional seconds', () => {
    expect(formatSeconds(120_000)).toBe('120 s');
    expect(formatSeconds(300)).toBe('0.3 s');
    expect(formatSeconds(1_250)).toBe('1.3 s');
  });
});
