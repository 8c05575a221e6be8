import { describe, expect, it } from 'vitest';
import { fixerLabel, formatSpend, formatCost, newestSpend, showsSpend } from './spend';

describe('formatSpend', () => {
  it('shows tokens against the cap and the estimated cost', () => {
    expect(formatSpend({ tokens: 1234, costMicroUsd: 2600, maxTokens: 200_000 })).toBe(
      '1,234 of 200,000 tokens · ≈ $0.0026',
    );
    expect(formatSpend({ tokens: 0, costMicroUsd: 0, maxTokens: 200_000 })).toBe(
      '0 of 200,000 tokens · $0',
    );
  });

  it('leaves the cap out when there is none', () => {
    expect(formatSpend({ tokens: 1, costMicroUsd: 5, maxTokens: null })).toBe(
      '1 token · < $0.0001',
    );
    expect(formatSpend({ tokens: 1_500_000, costMicroUsd: 12_345_678, maxTokens: null })).toBe(
      '1,500,000 tokens · ≈ $12.35',
    );
  });
});

describe('formatCost', () => {
  it('turns micro-dollars into an estimate in dollars', () => {
    expect(formatCost(0)).toBe('$0');
    expect(formatCost(99)).toBe('< $0.0001');
    expect(formatCost(100)).toBe('≈ $0.0001');
    expect(formatCost(2600)).toBe('≈ $0.0026');
    expect(formatCost(999_999)).toBe('≈ $1.00');
    expect(formatCost(1_000_000)).toBe('≈ $1.00');
  });
});

describe('fixerLabel and showsSpend', () => {
  it('names the fixers', () => {
    expect(fixerLabel('external')).toBe('External agents and people');
    expect(fixerLabel('llm')).toBe('LLM');
    expect(fixerLabel('other')).toBe('other');
  });

  it('shows the spend of an LLM task, or of any task that spent something', () => {
    const spend = { tokens: 0, costMicroUsd: 0, maxTokens: null };
    expect(showsSpend({ fixer: 'llm', spend })).toBe(true);
    expect(showsSpend({ fixer: 'external', spend })).toBe(false);
    expect(showsSpend({ fixer: 'external', spend: { ...spend, tokens: 3 } })).toBe(true);
  });
});

describe('newestSpend', () => {
  const stored = { tokens: 100, costMicroUsd: 200, maxTokens: 1000 };

  it('takes the live totals once they are ahead of the stored view', () => {
    expect(newestSpend(stored, { tokens: 150, costMicroUsd: 300 })).toEqual({
      tokens: 150,
      costMicroUsd: 300,
      maxTokens: 1000,
    });
  });

  it('keeps the stored view otherwise', () => {
    expect(newestSpend(stored, null)).toBe(stored);
    expect(newestSpend(stored, { tokens: 100, costMicroUsd: 200 })).toBe(stored);
    expect(newestSpend(stored, { tokens: 50, costMicroUsd: 80 })).toBe(stored);
  });
});
